import C2PA
import Foundation
import LensCrypto
import LensImaging
import LensSystem
import LensTestSupport
import XCTest

/// C2PA's signing to a file under a full disk or a failing device: the error is reported and the
/// destination is either absent or what it was before — never half a signed file.
final class SignedOutputFaultTests: FaultInjectionTestCase {
    nonisolated(unsafe) private static let fixtures = try! TemporaryDirectory.forProcess(prefix: "lens-system-fixtures")
    nonisolated(unsafe) private static let pki = try! TestPKI.make(in: fixtures.file("pki"))
    /// Noise, so the JPEG is large (some 200 kB): many writes of 8 kB.
    private static let photo: URL = {
        var generator = SystemRandomNumberGenerator()
        let rgb = (0..<(320 * 240 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let jpeg = try! rgb.withUnsafeBytes { try JPEGCodec.encode(rgb: $0, width: 320, height: 240, quality: 90) }
        let url = fixtures.file("photo.jpg")
        try! Data(jpeg).write(to: url)
        return url
    }()

    /// ffmpeg's layout (moov last): signing inserts the manifest box and copies the rest.
    nonisolated(unsafe) private static let video = try! TestMP4.make(at: fixtures.file("video.mp4"), .h264MoovLast, seconds: 1)

    private func writer() throws -> ManifestWriter {
        let key = try KeySigner(keyPEM: try String(contentsOf: Self.pki.key, encoding: .utf8),
                                chainPEM: try String(contentsOf: Self.pki.chain, encoding: .utf8))
        let generator = ClaimGeneratorInfo(name: "lensd", version: "0.1.0-test", operatingSystem: "Linux")
        return try ManifestWriter(generator: generator,
                                  assertions: [ActionsAssertion(when: Date(), digitalSourceType: .digitalCapture)], signer: key)
    }

    private func signer() throws -> JPEGSigner {
        try JPEGSigner(writer: writer())
    }

    /// Signs the photo into `name` in the test's directory: the header's write, then the rest's
    /// on the background writer's thread, then the store's.
    private func sign(into name: String) throws {
        try signer().sign(inputPath: Self.photo.path, outputPath: tmp.file(name).path)
    }

    private func assertFails(with expected: Errno, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case C2PAError.io(let what, let errno) = error else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(errno, expected, what, file: file, line: line)
            XCTAssertTrue(what.contains(self.tmp.url.path), "names the file: \(what)", file: file, line: line)
        }
        XCTAssertEqual(SystemCalls.FaultInjection.pending, 0, "the fault was met", file: file, line: line)
    }

    func testSigningWritesTheWholeFile() throws {
        try sign(into: "signed.jpg")
        XCTAssertEqual(try leftovers(), ["signed.jpg"])
        XCTAssertGreaterThan(try Data(contentsOf: tmp.file("signed.jpg")).count, try Data(contentsOf: Self.photo).count)
    }

    func testNoSpaceAtTheFirstWriteLeavesNothing() throws {
        inject(.noSpace, into: .write)
        assertFails(with: .noSpace) { try sign(into: "signed.jpg") }
        XCTAssertEqual(try leftovers(), [])
    }

    /// The copy of the rest, on the background writer's thread.
    func testNoSpaceInTheMiddleLeavesNothing() throws {
        inject(.noSpace, into: .write, skipping: 1)
        assertFails(with: .noSpace) { try sign(into: "signed.jpg") }
        XCTAssertEqual(try leftovers(), [])
    }

    /// The signed store's write into the gap, after the copy.
    func testNoSpaceForTheStoreLeavesNothing() throws {
        inject(.noSpace, into: .write, skipping: 2)
        assertFails(with: .noSpace) { try sign(into: "signed.jpg") }
        XCTAssertEqual(try leftovers(), [])
    }

    func testIOErrorAtFsyncLeavesThePreviousFile() throws {
        let previous = Data("the previous file".utf8)
        try previous.write(to: tmp.file("signed.jpg"))
        inject(.io, into: .sync)
        assertFails(with: .io) { try sign(into: "signed.jpg") }
        XCTAssertEqual(try leftovers(), ["signed.jpg"])
        XCTAssertEqual(try Data(contentsOf: tmp.file("signed.jpg")), previous)
    }

    func testInterruptedWritesStillSign() throws {
        inject(.interrupted, into: .write, times: 20)
        try sign(into: "signed.jpg")
        XCTAssertEqual(SystemCalls.FaultInjection.delivered, 20)
        let anchors = try Certificate.parsePEM(try String(contentsOf: Self.pki.root, encoding: .utf8))
        let report = try Verifier(trustAnchors: anchors).verify(fileAt: tmp.file("signed.jpg").path)
        XCTAssertEqual(report.state, .trusted, "\(report)")
    }

    /// MP4 signing copies through the background writer (HashingCopier) too.
    func testMP4SigningMeetingAFullDiskLeavesNothing() throws {
        let signer = MP4Signer(writer: try writer())
        inject(.noSpace, into: .write, skipping: 3)
        assertFails(with: .noSpace) { try signer.sign(inputPath: Self.video.path, outputPath: tmp.file("signed.mp4").path) }
        XCTAssertEqual(try leftovers(), [])
        try signer.sign(inputPath: Self.video.path, outputPath: tmp.file("signed.mp4").path)
        XCTAssertEqual(try leftovers(), ["signed.mp4"])
    }
}
