import LensTestSupport
import C2PA
import Foundation
import LensCrypto
import XCTest

/// lensd's verifier must reach c2pa-rs's verdict: the same state and the same failure codes,
/// on files c2pa-python signed and on tampered copies. Where c2pa-rs cannot read a file at all
/// (it raises instead of rating it), lensd must rate it Invalid with a general.error.
final class VerifierVersusReferenceTests: XCTestCase {
    var tmp: TemporaryDirectory!
    var pki: TestPKI!
    var vga: URL!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
        vga = try TestJPEG.make(at: tmp.file("vga.jpg"))
    }

    override func tearDown() { tmp = nil }

    // MARK: c2pa-python's own output

    func testReferencePlain() throws {
        let file = try ReferenceSigner.sign(input: vga, output: tmp.file("plain.jpg"), pki: pki)
        try agree(on: file, expect: "Trusted")
        try agree(on: file, anchors: [], expect: "Valid")
        try agree(on: file, anchors: [pki.other], expect: "Valid")
    }

    func testReferenceWithThumbnail() throws {
        try agree(on: ReferenceSigner.sign(input: vga, output: tmp.file("thumb.jpg"), pki: pki, thumbnail: true),
                  expect: "Trusted")
    }

    func testReferenceP384WithThreeCertificateChain() throws {
        let p384 = try TestPKI.make(in: tmp.file("p384"), curve: .p384, intermediates: 2)
        XCTAssertEqual(try Certificate.parsePEM(String(contentsOf: p384.chain, encoding: .utf8)).count, 3)
        let file = try ReferenceSigner.sign(input: vga, output: tmp.file("p384.jpg"), pki: p384)
        try agree(on: file, anchors: [p384.root], expect: "Trusted")
    }

    func testReferenceClaimV1() throws {
        let file = try ReferenceSigner.sign(input: vga, output: tmp.file("v1.jpg"), pki: pki, claimVersion: 1)
        let report = try agree(on: file, expect: "Trusted")
        XCTAssertEqual(report.claimVersion, 1)
    }

    func testReferenceMultiSegment() throws {
        let file = try ReferenceSigner.sign(input: vga, output: tmp.file("multi.jpg"), pki: pki, thumbnail: true)
        XCTAssertGreaterThanOrEqual(try JPEGTamper(file).storeSegments.count, 2)
        try agree(on: file, expect: "Trusted")
    }

    // MARK: Tampered copies, of c2pa-python's output and of lensd's

    func testTamperedCopies() throws {
        let reference = try ReferenceSigner.sign(input: vga, output: tmp.file("ref.jpg"), pki: pki)
        let lensd = tmp.file("lensd.jpg")
        try LensdSigning.sign(vga, into: lensd, pki: pki, location: SigningMatrixTests.fix3D)
        for signed in [reference, lensd] {
            let original = try JPEGTamper(signed)
            let cases: [(String, (inout JPEGTamper) throws -> Void, String)] = [
                ("pixel byte flipped", { $0.flip(at: $0.bytes.count - 100) }, "Invalid"),
                ("claim byte flipped", { $0.flip(at: $0.offset(of: "xmp.iid:")! + 10) }, "Invalid"),
                ("signature byte flipped", { $0.flip(at: $0.storeEnd - 10) }, "Invalid"),
                ("metadata byte flipped", { $0.flip(at: $0.offset(of: "exif:GPSLatitude\":\"")! + 20) }, "Invalid"),
                ("byte inserted in pixels", { $0.insert(0x55, at: $0.bytes.count - 100) }, "Invalid"),
            ]
            for (name, damage, expected) in cases {
                var copy = original
                try damage(&copy)
                let file = tmp.file("tampered.jpg")
                try copy.write(to: file)
                try agree(on: file, expect: expected, "\(signed.lastPathComponent): \(name)")
            }
        }
    }

    func testReorderedSegments() throws {
        for signed in [try ReferenceSigner.sign(input: vga, output: tmp.file("ref.jpg"), pki: pki, thumbnail: true),
                       try lensdSigned(chunkSize: 1000)] {
            var copy = try JPEGTamper(signed)
            copy.swapFirstTwoStoreSegments()
            try copy.write(to: tmp.file("reordered.jpg"))
            try agree(on: tmp.file("reordered.jpg"), expect: "Invalid", "\(signed.lastPathComponent) reordered")
        }
    }

    /// The x5chain's two certificates swap places: the intermediate now stands where the signer's
    /// certificate must be. Same length, so only the protected header changes.
    func testSwappedCertificates() throws {
        let chain = try Certificate.parsePEM(String(contentsOf: pki.chain, encoding: .utf8))
        for signed in [try ReferenceSigner.sign(input: vga, output: tmp.file("ref.jpg"), pki: pki), try lensdSigned()] {
            var copy = try JPEGTamper(signed)
            let leaf = CBOR.bytes(chain[0].der).encoded(), intermediate = CBOR.bytes(chain[1].der).encoded()
            try copy.replace(leaf + intermediate, with: intermediate + leaf)
            try copy.write(to: tmp.file("swapped.jpg"))
            try agree(on: tmp.file("swapped.jpg"), expect: "Invalid", "\(signed.lastPathComponent) swapped x5chain")
        }
    }

    /// c2pa-rs refuses to sign with an expired leaf, so lensd's engine (which leaves that check to
    /// the daemon's enrollment) makes the file; both verifiers must call it Invalid.
    func testExpiredLeaf() throws {
        let expired = try TestPKI.make(in: tmp.file("expired"), expiredLeaf: true)
        let file = tmp.file("expired.jpg")
        try LensdSigning.sign(vga, into: file, pki: expired)
        try agree(on: file, anchors: [expired.root], expect: "Invalid")
    }

    // MARK: Helpers

    private func lensdSigned(chunkSize: Int = 65_000) throws -> URL {
        let file = tmp.file("lensd-\(chunkSize).jpg")
        try LensdSigning.sign(vga, into: file, pki: pki, location: SigningMatrixTests.fix3D, chunkSize: chunkSize)
        return file
    }

    @discardableResult
    private func agree(on file: URL, anchors: [URL]? = nil, expect: String, _ context: String = "",
                       line: UInt = #line) throws -> VerificationReport {
        try assertVerifiersAgree(on: file, anchors: anchors ?? [pki.root], expect: expect, context, line: line)
    }
}
