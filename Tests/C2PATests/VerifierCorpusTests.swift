import LensTestSupport
@testable import C2PA
@testable import C2PAEncoding
import Foundation
import LensCrypto
import XCTest

/// The shapes other tools and cameras write, generated here with c2pa-python (and re-signed by
/// Tests/oracle/rewrite_manifest.py where the reference no longer writes them), each with
/// tampered copies: lensd's verifier must reach c2pa-rs's state and failure codes on every one.
final class VerifierCorpusTests: XCTestCase {
    var tmp: TemporaryDirectory!
    var pki: TestPKI!
    var vga: URL!
    private var files = 0

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
        vga = try TestJPEG.make(at: tmp.file("vga.jpg"))
        files = 0
    }

    override func tearDown() {
        print("verifier corpus: \(name): \(files) files, both verifiers agreed on state and failure codes")
        tmp = nil
    }

    // MARK: Every algorithm C2PA lists

    func testEveryAlgorithm() throws {
        let matrix: [(TestPKI.Curve, ReferenceSigner.Alg)] = [
            (.p256, .es256), (.p384, .es384), (.p521, .es512), (.rsa, .ps256), (.rsa, .ps384), (.rsa, .ps512),
            (.rsaPSS, .ps256), (.ed25519, .ed25519),
        ]
        for (curve, alg) in matrix {
            let keys = try TestPKI.make(in: tmp.file("pki-\(curve.rawValue)"), curve: curve)
            let file = try ReferenceSigner.sign(input: vga, output: tmp.file("\(alg.rawValue)-\(curve.rawValue).jpg"),
                                                pki: keys, alg: alg)
            let report = try agree(on: file, anchors: [keys.root], expect: "Trusted", "\(alg) on \(curve)")
            XCTAssertEqual(report.signer?.algorithm, alg.rawValue)
            try agree(on: file, anchors: [], expect: "Valid", "\(alg) on \(curve), no anchors")
            try tamperedCopies(of: file, anchors: [keys.root], "\(alg) on \(curve)")
        }
    }

    /// A key that does not match the algorithm the header names is refused by both.
    func testAlgorithmKeyMismatch() throws {
        let p384 = try TestPKI.make(in: tmp.file("p384"), curve: .p384)
        let file = try ReferenceSigner.sign(input: vga, output: tmp.file("es256-on-p384.jpg"), pki: p384, alg: .es384)
        var copy = try JPEGTamper(file)
        // ES384 (-35 = 0x38 0x22) becomes ES256 (-7 = 0x26 0x..) only with a length change, so name PS384 instead (-38).
        try copy.replace([0xA2, 0x01, 0x38, 0x22], with: [0xA2, 0x01, 0x38, 0x25])
        try copy.write(to: tmp.file("mismatch.jpg"))
        try agree(on: tmp.file("mismatch.jpg"), anchors: [p384.root], expect: "Invalid", "ES384 key under a PS384 header")
    }

    // MARK: Which anchors make a signer trusted

    /// c2pa-rs's rule: an anchor must have issued a certificate of the chain. The root and the
    /// intermediate do; the leaf itself (the first certificate of `lensctl trust-anchor --chain`)
    /// does not make its own signature trusted.
    func testTheLeafAsATrustAnchorDoesNotTrustItself() throws {
        let file = try ReferenceSigner.sign(input: vga, output: tmp.file("signed.jpg"), pki: pki)
        try agree(on: file, anchors: [pki.root], expect: "Trusted", "the root as anchor")
        try agree(on: file, anchors: [pki.dir.appendingPathComponent("inter1.pem")], expect: "Trusted", "the intermediate as anchor")
        try agree(on: file, anchors: [pki.leaf], expect: "Valid", "the leaf as anchor")
        try agree(on: file, anchors: [pki.chain], expect: "Trusted", "leaf and intermediate as anchors")
        let lensd = tmp.file("lensd.jpg")
        try LensdSigning.sign(vga, into: lensd, pki: pki)
        try agree(on: lensd, anchors: [pki.leaf], expect: "Valid", "lensd's file, the leaf as anchor")
    }

    // MARK: Claim versions

    func testClaimV1AndV2() throws {
        let rsa = try TestPKI.make(in: tmp.file("rsa"), curve: .rsa)
        for version in [1, 2] {
            for keys in [pki!, rsa] {
                let file = try ReferenceSigner.sign(input: vga, output: tmp.file("v\(version)-\(keys.curve.rawValue).jpg"),
                                                    pki: keys, claimVersion: version)
                let report = try agree(on: file, anchors: [keys.root], expect: "Trusted", "claim v\(version) \(keys.curve)")
                XCTAssertEqual(report.claimVersion, version)
                try tamperedCopies(of: file, anchors: [keys.root], "claim v\(version) \(keys.curve)")
            }
        }
    }

    // MARK: Ingredients, nested and update manifests

    /// An edit of a signed photo, and an edit of that edit: every manifest in the chain is checked.
    func testNestedIngredients() throws {
        let rsa = try TestPKI.make(in: tmp.file("rsa"), curve: .rsa)
        let anchors = [pki.root, rsa.root]
        let parent = try ReferenceSigner.sign(input: vga, output: tmp.file("parent.jpg"), pki: rsa)
        let child = try ReferenceSigner.sign(input: vga, output: tmp.file("child.jpg"), pki: pki, parent: parent)
        let grandchild = try ReferenceSigner.sign(input: vga, output: tmp.file("grandchild.jpg"), pki: pki, parent: child)
        for file in [child, grandchild] {
            let report = try agree(on: file, anchors: anchors, expect: "Trusted", file.lastPathComponent)
            XCTAssertEqual(report.manifests.count, file == child ? 2 : 3, "\(report.manifests.map(\.label))")
            XCTAssertEqual(report.manifests.first?.ingredients.first?.relationship, "parentOf")
            // The parent's signer untrusted: its writer recorded that already, so the delta (what a
            // reader reports) does not repeat it and the file stays Trusted, as c2pa-rs rates it.
            try agree(on: file, anchors: [pki.root], expect: "Trusted", "\(file.lastPathComponent), parent untrusted")
        }
        for file in [child, grandchild] {
            let original = try JPEGTamper(file)
            // The store holds the oldest manifest first: the first claim met is an ingredient's.
            let cases: [(String, (inout JPEGTamper) -> Void)] = [
                ("ingredient claim byte", { $0.flip(at: $0.offset(of: "xmp.iid:")! + 10) }),
                ("ingredient signature byte", { $0.flip(at: $0.firstSignatureBoxEnd! - 10) }),
                ("active claim byte", { $0.flip(at: $0.lastOffset(of: "c2pa.claim.v2")! + 60) }),
                ("pixel byte", { $0.flip(at: $0.bytes.count - 100) }),
            ]
            for (name, damage) in cases {
                var copy = original
                damage(&copy)
                try copy.write(to: tmp.file("tampered.jpg"))
                try agree(on: tmp.file("tampered.jpg"), anchors: anchors, expect: "Invalid", "\(file.lastPathComponent): \(name)")
            }
        }
    }

    /// An update manifest binds nothing itself: the parent's hard binding covers the asset.
    func testUpdateManifest() throws {
        let parent = try ReferenceSigner.sign(input: vga, output: tmp.file("parent.jpg"), pki: pki)
        let updated = try ReferenceSigner.sign(input: parent, output: tmp.file("updated.jpg"), pki: pki, parent: parent, update: true)
        let report = try agree(on: updated, anchors: [pki.root], expect: "Trusted", "update manifest")
        XCTAssertEqual(report.manifests.first?.isUpdate, true)
        try tamperedCopies(of: updated, anchors: [pki.root], "update manifest")
    }

    // MARK: Hand-written CBOR and URIs the reference reads but no longer writes

    func testOlderEncodings() throws {
        let signed = try ReferenceSigner.sign(input: vga, output: tmp.file("signed.jpg"), pki: pki)
        let shapes: [[ManifestRewriter.Shape]] = [[.indefiniteCBOR], [.explicitNulls], [.relativeURIs],
                                                  [.indefiniteCBOR, .explicitNulls, .relativeURIs]]
        for shape in shapes {
            let name = shape.map(\.rawValue).joined()
            let file = try ManifestRewriter.rewrite(signed, into: tmp.file("rewritten\(name).jpg"), pki: pki, shape)
            try agree(on: file, anchors: [pki.root], expect: "Trusted", name)
            try tamperedCopies(of: file, anchors: [pki.root], name)
        }
    }

    // MARK: CAWG identity

    /// A CAWG X.509 identity assertion: its signature is checked and reported under CAWG's codes;
    /// its credential (judged against a CAWG trust list neither side has here) stays untrusted,
    /// which keeps the file from Trusted but not from Valid; a changed byte in it is caught.
    func testCAWGIdentity() throws {
        let signed = try ReferenceSigner.sign(input: vga, output: tmp.file("signed.jpg"), pki: pki)
        let file = try ManifestRewriter.rewrite(signed, into: tmp.file("identity.jpg"), pki: pki, [], identity: true)
        let report = try agree(on: file, anchors: [pki.root], expect: "Valid", "identity")
        XCTAssertTrue(report.statuses.contains { $0.code == "cawg.x509.signature.validated" }, "\(report.statuses.map(\.code))")
        XCTAssertEqual(report.manifests.first?.identities.count, 1)
        XCTAssertTrue(report.manifests.first?.identities.first?.contains("CN=lensd test signer") == true)
        var copy = try JPEGTamper(file)
        copy.flip(at: copy.offset(of: "cawg.x509.cose")! + 40)
        try copy.write(to: tmp.file("tampered.jpg"))
        try agree(on: tmp.file("tampered.jpg"), anchors: [pki.root], expect: "Invalid", "identity byte")
    }

    // MARK: ISO-BMFF: v2 (claim v1), v3, plain v1 and explicit nulls

    func testBMFFHashVersions() throws {
        let input = try TestMP4.make(at: tmp.file("in.mp4"), .mjpeg, seconds: 1)
        let v3 = try ReferenceSigner.sign(input: input, output: tmp.file("v3.mp4"), pki: pki)
        let v2 = try ReferenceSigner.sign(input: input, output: tmp.file("v2.mp4"), pki: pki, claimVersion: 1)
        let files = [v3, v2,
                     try ManifestRewriter.rewrite(v2, into: tmp.file("plain.mp4"), pki: pki, [.plainBMFFHash]),
                     try ManifestRewriter.rewrite(v3, into: tmp.file("plain-v2claim.mp4"), pki: pki, [.plainBMFFHash]),
                     try ManifestRewriter.rewrite(v3, into: tmp.file("nulls.mp4"), pki: pki, [.explicitNulls, .indefiniteCBOR])]
        for file in files {
            try agree(on: file, anchors: [pki.root], expect: "Trusted", file.lastPathComponent)
            let original = try MP4Tamper(file)
            let cases: [(String, (inout MP4Tamper) -> Void)] = [
                ("mdat byte", { $0.flip(at: $0.box("mdat")!.payload.lowerBound + $0.box("mdat")!.payload.count / 2) }),
                ("claim byte", { $0.flip(at: $0.lastOffset(of: "c2pa.claim")! + 60) }),
                ("signature byte", { $0.flip(at: $0.storeEnd - 10) }),
            ]
            for (name, damage) in cases {
                var copy = original
                damage(&copy)
                try copy.write(to: tmp.file("tampered.mp4"))
                try agree(on: tmp.file("tampered.mp4"), anchors: [pki.root], expect: "Invalid", "\(file.lastPathComponent): \(name)")
            }
        }
    }

    // MARK: Time-stamps

    /// A trusted RFC 3161 stamp fixes when the claim was signed: once the short-lived signer has
    /// expired, the stamped file stays Trusted and the unstamped one turns Invalid, in both verifiers.
    func testTimeStampKeepsAnExpiredSignerValid() throws {
        let tsa = try LocalTSA(directory: tmp.file("tsa"))
        let shortLived = try TestPKI.make(in: tmp.file("short"), leafDays: 1)
        let stamped = try ReferenceSigner.sign(input: vga, output: tmp.file("stamped.jpg"), pki: shortLived, tsaURL: tsa.url)
        let unstamped = try ReferenceSigner.sign(input: vga, output: tmp.file("unstamped.jpg"), pki: shortLived)
        let both = [shortLived.root, tsa.root]

        let now = try agree(on: stamped, anchors: both, expect: "Trusted", "stamped, today")
        XCTAssertNotNil(now.signer?.timeStamp)
        XCTAssertTrue(now.statuses.contains { $0.code == StatusCode.timeStampTrusted })
        // The TSA untrusted: the stamp is informational only, and validity is judged today.
        let untrustedTSA = try agree(on: stamped, anchors: [shortLived.root], expect: "Trusted", "stamped, TSA untrusted")
        XCTAssertTrue(untrustedTSA.statuses.contains { $0.code == StatusCode.timeStampUntrusted && $0.kind == .informational })

        try agree(on: stamped, anchors: both, expect: "Trusted", "stamped, signer expired", daysAhead: 3)
        try agree(on: unstamped, anchors: both, expect: "Invalid", "unstamped, signer expired", daysAhead: 3)
        try agree(on: stamped, anchors: [shortLived.root], expect: "Invalid", "stamped by an untrusted TSA, signer expired",
                  daysAhead: 3)

        // A changed byte in the token: the stamp no longer verifies, so the expiry counts again.
        var copy = try JPEGTamper(stamped)
        copy.flip(at: copy.offset(of: "Lensd Test TSA Signer")! + 3)
        try copy.write(to: tmp.file("bad-stamp.jpg"))
        let bad = try agree(on: tmp.file("bad-stamp.jpg"), anchors: both, expect: "Trusted", "damaged stamp, today")
        XCTAssertNil(bad.signer?.timeStamp)
        try agree(on: tmp.file("bad-stamp.jpg"), anchors: both, expect: "Invalid", "damaged stamp, signer expired", daysAhead: 3)
    }

    // MARK: Helpers

    /// A byte changed in the asset, the claim and the signature: Invalid for both.
    private func tamperedCopies(of file: URL, anchors: [URL], _ context: String, line: UInt = #line) throws {
        let original = try JPEGTamper(file)
        let cases: [(String, (inout JPEGTamper) -> Void)] = [
            ("pixel byte", { $0.flip(at: $0.bytes.count - 100) }),
            ("claim byte", { $0.flip(at: $0.lastOffset(of: "c2pa.claim")! + 60) }),
            ("signature byte", { $0.flip(at: $0.storeEnd - 10) }),
        ]
        for (name, damage) in cases {
            var copy = original
            damage(&copy)
            try copy.write(to: tmp.file("tampered.jpg"))
            try agree(on: tmp.file("tampered.jpg"), anchors: anchors, expect: "Invalid", "\(context): \(name)", line: line)
        }
    }

    @discardableResult
    private func agree(on file: URL, anchors: [URL], expect: String, _ context: String, daysAhead: Int = 0,
                       line: UInt = #line) throws -> VerificationReport {
        files += 1
        return try assertVerifiersAgree(on: file, anchors: anchors, expect: expect, context, daysAhead: daysAhead, line: line)
    }
}
