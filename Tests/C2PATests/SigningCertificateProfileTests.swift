import C2PA
import Foundation
import LensCrypto
import LensTestSupport
import XCTest

/// One profile decides what lensd's verifier accepts in a signer and which certificate lensd signs
/// with, and both must be c2pa-rs's, judged on the same certificates: c2pa-python signs with each
/// leaf variant (or refuses to, as c2pa-rs's signer does) and reads the file back, and lensd's
/// verifier must agree on that file and on one lensd signed with the same leaf.
final class SigningCertificateProfileTests: XCTestCase {
    private struct Variant {
        let name: String
        let profile: CertificateProfile
        /// Whether c2pa-rs signs with it, and then its reader's state (FORMAT.md §3's experiment).
        let reference: String?
    }

    private static func leaf(ca: Bool? = false, usage: KeyUsage? = .digitalSignature, eku: [String]?,
                             aki: Bool = true) -> CertificateProfile {
        .custom(isCA: ca, keyUsage: usage, extendedKeyUsage: eku, authorityKeyIdentifier: aki)
    }

    private static let email = ExtendedKeyUsage.emailProtection
    private static let variants = [
        Variant(name: "baseline", profile: .c2paSigner, reference: "Trusted"),
        Variant(name: "email-only", profile: leaf(eku: [email]), reference: "Trusted"),
        Variant(name: "document-signing-only", profile: leaf(eku: [ExtendedKeyUsage.documentSigning]), reference: "Invalid"),
        Variant(name: "claim-signing-only", profile: leaf(eku: [ExtendedKeyUsage.c2paClaimSigning]), reference: "Invalid"),
        Variant(name: "server-auth-only", profile: leaf(eku: [ExtendedKeyUsage.serverAuth]), reference: nil),
        Variant(name: "any-eku", profile: leaf(eku: [ExtendedKeyUsage.anyExtendedKeyUsage]), reference: nil),
        Variant(name: "time-stamping-and-email", profile: leaf(eku: [ExtendedKeyUsage.timeStamping, email]), reference: nil),
        Variant(name: "time-stamping-only", profile: leaf(eku: [ExtendedKeyUsage.timeStamping]), reference: "Trusted"),
        Variant(name: "ocsp-signing-only", profile: leaf(eku: [ExtendedKeyUsage.ocspSigning]), reference: "Trusted"),
        Variant(name: "no-eku", profile: leaf(eku: nil), reference: nil),
        Variant(name: "no-key-usage", profile: leaf(usage: nil, eku: [email]), reference: nil),
        Variant(name: "non-repudiation", profile: leaf(usage: .nonRepudiation, eku: [email]), reference: "Trusted"),
        Variant(name: "key-cert-sign", profile: leaf(usage: [.digitalSignature, .keyCertSign], eku: [email]), reference: nil),
        Variant(name: "ca-leaf", profile: leaf(ca: true, eku: [email]), reference: nil),
        Variant(name: "no-aki", profile: leaf(eku: [email], aki: false), reference: nil),
    ]

    func testOneProfileAgreesWithC2paRsOnEveryLeafVariant() throws {
        let tmp = try TemporaryDirectory()
        let photo = try TestJPEG.make(at: tmp.file("photo.jpg"))
        for variant in Self.variants {
            let pki = try Self.makePKI(leaf: variant.profile, in: tmp.file(variant.name))
            let leaf = try XCTUnwrap(Certificate.parsePEM(String(contentsOf: pki.leaf, encoding: .utf8)).first)

            let reference = try? ReferenceSigner.sign(input: photo, output: tmp.file(variant.name + "-reference.jpg"), pki: pki)
            XCTAssertEqual(reference != nil, variant.reference != nil, "\(variant.name): c2pa-rs signs")
            if let reference, let state = variant.reference {
                try assertVerifiersAgree(on: reference, anchors: [pki.root], expect: state, variant.name)
            }
            // lensd signs with exactly what c2pa-rs signs with and its reader then trusts.
            let refusal = SigningCertificateProfile.violation(leaf)
            XCTAssertEqual(refusal == nil, variant.reference == "Trusted", "\(variant.name): \(refusal?.description ?? "accepted")")

            // Whatever the leaf, lensd's verifier judges lensd's signature with it as c2pa-rs does.
            let own = tmp.file(variant.name + "-lensd.jpg")
            try LensdSigning.sign(photo, into: own, pki: pki)
            let state = try ReferenceValidator.verdict(file: own, anchors: [pki.root]).validationState
            try assertVerifiersAgree(on: own, anchors: [pki.root], expect: state ?? "Invalid", variant.name + ", signed by lensd")
        }
    }

    /// root → intermediate → a leaf of `profile`, written as make_pki.sh writes its files.
    private static func makePKI(leaf profile: CertificateProfile, in dir: URL) throws -> TestPKI {
        let now = Date(), day = 86_400.0
        let rootKey = try PrivateKey.generate(.p256), interKey = try PrivateKey.generate(.p256), leafKey = try PrivateKey.generate(.p256)
        let root = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Profile Test", commonName: "Root"), subjectKey: rootKey.publicKey,
            profile: .rootCA, notBefore: now - day, notAfter: now + 3650 * day, issuer: nil, selfSigningKey: rootKey)
        let inter = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Profile Test", commonName: "Intermediate"), subjectKey: interKey.publicKey,
            profile: .intermediateCA(pathLength: 0), notBefore: now - day, notAfter: now + 1000 * day, issuer: (root, rootKey))
        let leaf = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Profile Test", commonName: "Signer"), subjectKey: leafKey.publicKey,
            profile: profile, notBefore: now - day, notAfter: now + 300 * day, issuer: (inter, interKey))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try root.pem.write(to: dir.appendingPathComponent("root.pem"), atomically: false, encoding: .utf8)
        try leaf.pem.write(to: dir.appendingPathComponent("leaf.pem"), atomically: false, encoding: .utf8)
        try (leaf.pem + inter.pem).write(to: dir.appendingPathComponent("chain.pem"), atomically: false, encoding: .utf8)
        try leafKey.pkcs8PEM().write(to: dir.appendingPathComponent("leaf.pk8"), atomically: false, encoding: .utf8)
        return TestPKI(dir: dir, curve: .p256)
    }
}
