import LensTestSupport
@testable import C2PA
@testable import C2PAEncoding
import Foundation
import XCTest

/// lensd's MP4 verification must reach c2pa-rs's verdict (state and failure codes) on MP4s
/// c2pa-python signed, on lensd's own, and on tampered copies of both.
final class MP4VerifierVersusReferenceTests: XCTestCase {
    var tmp: TemporaryDirectory!
    var pki: TestPKI!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
    }

    override func tearDown() { tmp = nil }

    func testReferenceSignedFiles() throws {
        for kind in [TestMP4.Kind.h264MoovLast, .h264MoovFirst, .mjpeg] {
            let file = try referenceSigned(kind)
            try assertVerifiersAgree(on: file, anchors: [pki.root], expect: "Trusted", kind.rawValue)
            try assertVerifiersAgree(on: file, anchors: [], expect: "Valid", "\(kind.rawValue), no anchors")
        }
    }

    /// c2pa-rs notes every BMFF exclusion beyond the C2PA box (informational), on its own files
    /// and on lensd's, which exclude the standard ftyp, free, skip and mfra too.
    func testAdditionalExclusionsAreNoted() throws {
        let codes: Set<String> = [StatusCode.bmffHashAdditionalExclusions, StatusCode.bmffHashMatch]
        for file in [try referenceSigned(.mjpeg), try lensdSigned(.h264MoovLast)] {
            let report = try assertVerifiersAgree(on: file, anchors: [pki.root], expect: "Trusted", file.lastPathComponent,
                                                  alsoComparing: codes)
            XCTAssertTrue(report.statuses.contains { $0.code == StatusCode.bmffHashAdditionalExclusions && $0.kind == .informational })
        }
    }

    func testTamperedCopies() throws {
        let signed = [try referenceSigned(.h264MoovLast), try referenceSigned(.mjpeg),
                      try lensdSigned(.h264MoovLast), try lensdSigned(.h264MoovFirst)]
        for file in signed {
            let original = try MP4Tamper(file)
            let cases: [(String, (inout MP4Tamper) -> Void)] = [
                ("mdat byte flipped", { $0.flip(at: $0.box("mdat")!.payload.lowerBound + $0.box("mdat")!.payload.count / 2) }),
                ("moov byte flipped", { $0.flip(at: $0.box("moov")!.end - 20) }),
                ("claim byte flipped", { $0.flip(at: $0.offset(of: "xmp.iid:")! + 10) }),
                ("signature byte flipped", { $0.flip(at: $0.storeEnd - 10) }),
                ("metadata byte flipped", { $0.flip(at: $0.offset(of: "exif:GPSLatitude\":\"")! + 20) }),
            ]
            for (name, damage) in cases {
                var copy = original
                damage(&copy)
                let tampered = tmp.file("tampered.mp4")
                try copy.write(to: tampered)
                try assertVerifiersAgree(on: tampered, anchors: [pki.root], expect: "Invalid", "\(file.lastPathComponent): \(name)")
            }
        }
    }

    /// A flipped bit in the C2PA UUID hides the manifest: both verifiers find none.
    func testDamagedUUIDHidesTheManifest() throws {
        for file in [try referenceSigned(.h264MoovLast), try lensdSigned(.h264MoovLast)] {
            var copy = try MP4Tamper(file)
            copy.flip(at: copy.manifestBox!.offset + 10)
            let tampered = tmp.file("no-uuid.mp4")
            try copy.write(to: tampered)
            XCTAssertEqual(try ReferenceValidator.verdict(file: tampered, anchors: [pki.root]).exitStatus, 2)
            XCTAssertThrowsError(try LensdSigning.verify(tampered, anchors: [pki.root])) { error in
                XCTAssertEqual(error as? C2PAError, .noManifest)
            }
        }
    }

    /// A signer that excludes boxes below the root (here every trak) but hashed them: both
    /// verifiers cut them out and find a mismatch.
    func testNestedExclusionIsInvalidForBoth() throws {
        let plain = try TestMP4.make(at: tmp.file("plain.mp4"), .h264MoovLast)
        let file = tmp.file("nested.mp4")
        let reserve = try TestMP4.withReserve(plain, size: 8 << 10, into: file)
        let binding = BMFFHashAssertion(exclusions: BMFFHashAssertion.standardExclusions + [.init(xpath: "/moov/trak")],
                                        hash: try BMFFHasher.hash(fileAt: file.path))
        let writer = try LensdSigning.writer(pki: pki, metadata: LensdSigning.metadata(location: nil))
        let box = try ContentProvenanceBox.encode(store: try writer.signedStore(hardBinding: binding), size: reserve.count)
        var bytes = Array(try Data(contentsOf: file))
        bytes.replaceSubrange(reserve, with: box)
        try Data(bytes).write(to: file)
        let own = try assertVerifiersAgree(on: file, anchors: [pki.root], expect: "Invalid")
        XCTAssertEqual(own.failures.map(\.code), [StatusCode.bmffHashMismatch])
    }

    /// The same exclusion with the hash taken without the trak boxes: Trusted for both, and a
    /// changed byte inside a trak (now unhashed) is no change while one in its moov header is.
    func testNestedExclusionHashedThatWay() throws {
        let plain = try TestMP4.make(at: tmp.file("plain.mp4"), .h264MoovLast)
        let file = tmp.file("nested.mp4")
        let reserve = try TestMP4.withReserve(plain, size: 8 << 10, into: file)
        let exclusions = BMFFHashAssertion.standardExclusions + [.init(xpath: "/moov/trak")]
        let handle = try POSIXFile(path: file.path, flags: O_RDONLY)
        let binding = BMFFHashAssertion(exclusions: exclusions, hash: try BMFFHasher.digest(
            of: handle, boxes: try BMFFScanner.rootBoxes(of: handle), exclusions: exclusions, algorithm: .sha256))
        let writer = try LensdSigning.writer(pki: pki, metadata: LensdSigning.metadata(location: nil))
        let box = try ContentProvenanceBox.encode(store: try writer.signedStore(hardBinding: binding), size: reserve.count)
        var bytes = Array(try Data(contentsOf: file))
        bytes.replaceSubrange(reserve, with: box)
        try Data(bytes).write(to: file)
        try assertVerifiersAgree(on: file, anchors: [pki.root], expect: "Trusted")

        var copy = try MP4Tamper(file)
        copy.flip(at: copy.box("moov")!.offset + 12)  // inside mvhd, which stays hashed
        try copy.write(to: tmp.file("moov-header.mp4"))
        try assertVerifiersAgree(on: tmp.file("moov-header.mp4"), anchors: [pki.root], expect: "Invalid")
    }

    // MARK: Helpers

    private func referenceSigned(_ kind: TestMP4.Kind) throws -> URL {
        let input = try TestMP4.make(at: tmp.file("\(kind.rawValue).mp4"), kind)
        return try ReferenceSigner.sign(input: input, output: tmp.file("reference-\(kind.rawValue).mp4"), pki: pki)
    }

    private func lensdSigned(_ kind: TestMP4.Kind) throws -> URL {
        let input = try TestMP4.make(at: tmp.file("\(kind.rawValue).mp4"), kind)
        let output = tmp.file("lensd-\(kind.rawValue).mp4")
        try LensdSigning.signMP4(input, into: output, pki: pki, location: SigningMatrixTests.fix3D)
        return output
    }
}
