import Foundation
import LensCrypto
import XCTest

final class CertificateIssuerTests: XCTestCase {
    func testChainProperties() throws {
        let leafNotAfter = Date(timeIntervalSinceNow: 86400 * 30)
        let chain = try TestChain.make(leafNotAfter: leafNotAfter)
        let (root, intermediate, leaf) = (chain.root, chain.intermediate, chain.leaf)

        for certificate in [root, intermediate, leaf] {
            XCTAssertEqual(certificate.version, 3)
            XCTAssertTrue(certificate.hasSubjectKeyIdentifier)
            XCTAssertTrue(certificate.hasAuthorityKeyIdentifier)
            XCTAssertFalse(certificate.hasUnknownCriticalExtension)
            XCTAssertEqual(certificate.serialNumberHex.count, 32)
            XCTAssertEqual(certificate.sha256Fingerprint, Digest.hash(certificate.der))
            XCTAssertEqual(try Certificate(der: certificate.der), certificate)
        }

        XCTAssertEqual(root.subject, TestChain.rootName)
        XCTAssertEqual(root.issuer, TestChain.rootName)
        XCTAssertTrue(root.isSelfIssued)
        XCTAssertEqual(root.isCA, true)
        XCTAssertEqual(root.keyUsage, [.keyCertSign, .cRLSign])
        XCTAssertNil(root.extendedKeyUsage)
        XCTAssertEqual(root.authorityKeyIdentifier, root.subjectKeyIdentifier)
        XCTAssertEqual(root.signatureAlgorithm, "ecdsa-with-SHA384")
        XCTAssertEqual(root.publicKey, chain.rootKey.publicKey)

        XCTAssertEqual(intermediate.subject, TestChain.intermediateName)
        XCTAssertEqual(intermediate.issuer, TestChain.rootName)
        XCTAssertFalse(intermediate.isSelfIssued)
        XCTAssertEqual(intermediate.isCA, true)
        XCTAssertEqual(intermediate.keyUsage, [.keyCertSign, .cRLSign])
        XCTAssertNil(intermediate.extendedKeyUsage)
        XCTAssertEqual(intermediate.authorityKeyIdentifier, root.subjectKeyIdentifier)
        XCTAssertEqual(intermediate.signatureAlgorithm, "ecdsa-with-SHA384")
        XCTAssertEqual(intermediate.publicKey.curve, .p256)

        XCTAssertEqual(leaf.subject, TestChain.leafName)
        XCTAssertEqual(leaf.subject.organization, "Lensd Test")
        XCTAssertEqual(leaf.subject.oneLine, "C=US, O=Lensd Test, OU=Devices, CN=cam 1")
        XCTAssertEqual(leaf.issuer, TestChain.intermediateName)
        XCTAssertFalse(leaf.isSelfIssued)
        XCTAssertEqual(leaf.isCA, false)
        XCTAssertEqual(leaf.keyUsage, [.digitalSignature, .nonRepudiation])
        XCTAssertEqual(leaf.extendedKeyUsage, [
            ExtendedKeyUsage.emailProtection, ExtendedKeyUsage.documentSigning, ExtendedKeyUsage.c2paClaimSigning,
        ])
        XCTAssertEqual(leaf.authorityKeyIdentifier, intermediate.subjectKeyIdentifier)
        XCTAssertNotEqual(leaf.subjectKeyIdentifier, intermediate.subjectKeyIdentifier)
        XCTAssertEqual(leaf.signatureAlgorithm, "ecdsa-with-SHA256")
        XCTAssertEqual(leaf.publicKey, chain.leafKey.publicKey)
        XCTAssertEqual(leaf.notAfter, Date(timeIntervalSince1970: leafNotAfter.timeIntervalSince1970.rounded(.down)))
        XCTAssertLessThan(leaf.notBefore, Date())

        XCTAssertNotEqual(leaf, intermediate)
        XCTAssertEqual(Set([root, intermediate, leaf].map(\.serialNumberHex)).count, 3)
    }

    func testOpenSSLVerifyAcceptsChain() throws {
        let chain = try TestChain.make()
        let directory = try TemporaryDirectory()
        let root = try directory.write("root.pem", chain.root.pem)
        let intermediate = try directory.write("inter.pem", chain.intermediate.pem)
        let leaf = try directory.write("leaf.pem", chain.leaf.pem)

        let plain = try OpenSSLCLI.succeed(["verify", "-CAfile", root, "-untrusted", intermediate, leaf])
        XCTAssertEqual(plain.text, "\(leaf): OK\n")
        let strict = try OpenSSLCLI.succeed(["verify", "-x509_strict", "-CAfile", root, "-untrusted", intermediate, leaf])
        XCTAssertEqual(strict.text, "\(leaf): OK\n")

        let withoutIntermediate = try OpenSSLCLI.run(["verify", "-CAfile", root, leaf])
        XCTAssertNotEqual(withoutIntermediate.status, 0)
    }

    func testOpenSSLCLISeesTheProfileExtensions() throws {
        let chain = try TestChain.make()
        let text = try OpenSSLCLI.succeed(["x509", "-noout", "-text"], input: Array(chain.leaf.pem.utf8)).text
        XCTAssertTrue(text.contains("X509v3 Basic Constraints: critical\n                CA:FALSE"), text)
        XCTAssertTrue(text.contains("X509v3 Key Usage: critical\n                Digital Signature, Non Repudiation\n"), text)
        XCTAssertTrue(text.contains("X509v3 Extended Key Usage: \n                E-mail Protection, 1.3.6.1.5.5.7.3.36, 1.3.6.1.4.1.62558.2.1"), text)

        let intermediateText = try OpenSSLCLI.succeed(["x509", "-noout", "-text"], input: Array(chain.intermediate.pem.utf8)).text
        XCTAssertTrue(intermediateText.contains("CA:TRUE, pathlen:0"), intermediateText)
        XCTAssertTrue(intermediateText.contains("Certificate Sign, CRL Sign"), intermediateText)

        let serial = try OpenSSLCLI.succeed(["x509", "-noout", "-serial"], input: Array(chain.leaf.pem.utf8)).text
        XCTAssertEqual(serial, "serial=\(chain.leaf.serialNumberHex)\n")
    }

    func testSignatureAlgorithmFollowsIssuerCurve() throws {
        let expected: [EllipticCurve: String] = [.p256: "ecdsa-with-SHA256", .p384: "ecdsa-with-SHA384", .p521: "ecdsa-with-SHA512"]
        for curve in EllipticCurve.allCases {
            let chain = try TestChain.make(rootCurve: curve, intermediateCurve: curve, leafCurve: .p256)
            XCTAssertEqual(chain.root.signatureAlgorithm, expected[curve])
            XCTAssertEqual(chain.intermediate.signatureAlgorithm, expected[curve])
            XCTAssertEqual(chain.leaf.signatureAlgorithm, expected[curve])
        }
    }

    func testSerialsArePositiveSixteenBytesAndDistinct() throws {
        let key = try PrivateKey.generate(.p256)
        var serials: Set<String> = []
        for _ in 0..<32 {
            let certificate = try CertificateIssuer.issue(
                subject: DistinguishedName(commonName: "serial"), subjectKey: key.publicKey, profile: .rootCA,
                notBefore: Date(), notAfter: Date(timeIntervalSinceNow: 60), issuer: nil, selfSigningKey: key)
            let serial = certificate.serialNumberHex
            XCTAssertEqual(serial.count, 32)
            XCTAssertTrue("4567".contains(serial.first!), serial)
            serials.insert(serial)
        }
        XCTAssertEqual(serials.count, 32)
    }

    func testCustomProfile() throws {
        let chain = try TestChain.make()
        let key = try PrivateKey.generate(.p256)
        let bare = try CertificateIssuer.issue(
            subject: DistinguishedName(commonName: "bare"), subjectKey: key.publicKey,
            profile: .custom(isCA: nil, keyUsage: nil, extendedKeyUsage: nil, authorityKeyIdentifier: false),
            notBefore: Date(), notAfter: Date(timeIntervalSinceNow: 60), issuer: (chain.intermediate, chain.intermediateKey))
        XCTAssertNil(bare.isCA)
        XCTAssertNil(bare.keyUsage)
        XCTAssertNil(bare.extendedKeyUsage)
        XCTAssertFalse(bare.hasAuthorityKeyIdentifier)
        XCTAssertNil(bare.authorityKeyIdentifier)
        XCTAssertTrue(bare.hasSubjectKeyIdentifier)

        let custom = try CertificateIssuer.issue(
            subject: DistinguishedName(commonName: "custom"), subjectKey: key.publicKey,
            profile: .custom(
                isCA: false, keyUsage: [.digitalSignature, .nonRepudiation, .keyAgreement, .decipherOnly],
                extendedKeyUsage: [ExtendedKeyUsage.timeStamping, ExtendedKeyUsage.anyExtendedKeyUsage], authorityKeyIdentifier: true),
            notBefore: Date(), notAfter: Date(timeIntervalSinceNow: 60), issuer: (chain.intermediate, chain.intermediateKey))
        XCTAssertEqual(custom.isCA, false)
        XCTAssertEqual(custom.keyUsage, [.digitalSignature, .nonRepudiation, .keyAgreement, .decipherOnly])
        XCTAssertEqual(custom.extendedKeyUsage, [ExtendedKeyUsage.timeStamping, ExtendedKeyUsage.anyExtendedKeyUsage])
        XCTAssertEqual(custom.authorityKeyIdentifier, chain.intermediate.subjectKeyIdentifier)
    }

    func testIssuerPreconditions() throws {
        let chain = try TestChain.make()
        let key = try PrivateKey.generate(.p256)
        let name = DistinguishedName(commonName: "x")
        func issue(
            _ issuer: (certificate: Certificate, key: PrivateKey)?, _ selfSigningKey: PrivateKey?,
            notAfter: Date = Date(timeIntervalSinceNow: 60)
        ) throws -> Certificate {
            try CertificateIssuer.issue(
                subject: name, subjectKey: key.publicKey, profile: .c2paSigner,
                notBefore: Date(), notAfter: notAfter, issuer: issuer, selfSigningKey: selfSigningKey)
        }
        XCTAssertThrowsError(try issue(nil, nil)) { XCTAssertTrue($0 is CryptoError) }
        XCTAssertThrowsError(try issue((chain.intermediate, chain.intermediateKey), key))
        XCTAssertThrowsError(try issue(nil, chain.leafKey), "self-signing key must match subjectKey")
        XCTAssertThrowsError(try issue((chain.intermediate, chain.rootKey), nil), "issuer key must match issuer certificate")
        XCTAssertThrowsError(try issue(nil, key, notAfter: Date(timeIntervalSinceNow: -60)))
        XCTAssertNoThrow(try issue(nil, key))
    }

    func testRSAIssuerKeyIsRejected() throws {
        let rsa = try PrivateKey(pem: OpenSSLCLI.succeed(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).text)
        XCTAssertThrowsError(try CertificateIssuer.issue(
            subject: DistinguishedName(commonName: "rsa"), subjectKey: rsa.publicKey, profile: .rootCA,
            notBefore: Date(), notAfter: Date(timeIntervalSinceNow: 60), issuer: nil, selfSigningKey: rsa))
    }

    func testNames() throws {
        let key = try PrivateKey.generate(.p256)
        func issue(_ name: DistinguishedName) throws -> Certificate {
            try CertificateIssuer.issue(
                subject: name, subjectKey: key.publicKey, profile: .rootCA,
                notBefore: Date(), notAfter: Date(timeIntervalSinceNow: 60), issuer: nil, selfSigningKey: key)
        }
        let unicode = DistinguishedName(organization: "Kamera Überwachung", commonName: "📷 Gerät")
        XCTAssertEqual(try issue(unicode).subject, unicode)
        XCTAssertEqual(unicode.oneLine, "O=Kamera Überwachung, CN=📷 Gerät")
        XCTAssertEqual(DistinguishedName(country: "DE", commonName: "cam").oneLine, "C=DE, CN=cam")
        XCTAssertEqual(DistinguishedName().oneLine, "")

        XCTAssertThrowsError(try issue(DistinguishedName(country: "USA", commonName: "x"))) { error in
            XCTAssertTrue("\(error)".contains("C=USA"), "\(error)")
        }
    }
}
