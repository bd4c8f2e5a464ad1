import C2PA
import Foundation
import LensCore
import LensTestSupport
import XCTest

/// VideoSigning on finished recordings: in place into the reserve, and — when the manifest does
/// not fit — by rewriting the file with the box inserted. c2pa-python and FFmpeg judge.
final class VideoSigningTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var pki: TestPKI!

    override func setUpWithError() throws {
        directory = try temporaryDirectory(prefix: "lensd-video-signing")
        pki = try TestPKI.make(in: directory.url)
    }

    func testARecordingIsSignedInItsReserveWithoutMovingASample() throws {
        let path = directory.file("clip.mp4").path
        let finished = try MP4TestMedia.writeMJPEGJournal(at: path).writer.finish()
        let before = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        try signing().sign(finished, facts: facts, location: nil)

        let after = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(after.count, before.count)
        XCTAssertEqual(after[..<finished.reserve.lowerBound], before[..<finished.reserve.lowerBound])
        XCTAssertEqual(after[finished.reserve.upperBound...], before[finished.reserve.upperBound...])
        try assertTrustedAndPlays(path, frames: 30)
    }

    /// The reserve is cut down to 100 bytes (two `free` boxes where there was one: the hash and
    /// every offset stay as they are), so the manifest cannot fit and the file is rewritten.
    func testAManifestThatDoesNotFitTheReserveIsInsertedInstead() throws {
        let path = directory.file("clip.mp4").path
        var finished = try MP4TestMedia.writeMJPEGJournal(at: path).writer.finish()
        let start = finished.reserve.lowerBound
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try file.seek(toOffset: UInt64(start))
        try file.write(contentsOf: Data([0, 0, 0, 100]) + Data("free".utf8) + Data(count: 92)
                       + Data([0, 0, 0xFF, 0x9C]) + Data("free".utf8))
        try file.close()
        finished.reserve = start..<(start + 100)
        XCTAssertEqual(try BMFFHasher.hash(fileAt: path), finished.bmffHash)

        try signing().sign(finished, facts: facts, location: nil)
        XCTAssertGreaterThan(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0, finished.size)
        try assertTrustedAndPlays(path, frames: 30)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".tmp-") }, [])
    }

    private var facts: VideoSigning.Facts {
        VideoSigning.Facts(startTime: Date(), make: "lensd", model: "test muxer", isSynthetic: true, digitalZoomRatio: nil)
    }

    private func signing() throws -> VideoSigning {
        let signer = try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8),
                                        chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
        return VideoSigning(signer: signer, generator: ClaimGeneratorInfo(name: "lensd-tests", version: "0"))
    }

    private func assertTrustedAndPlays(_ path: String, frames: Int, line: UInt = #line) throws {
        let url = URL(fileURLWithPath: path)
        let verdict = try ReferenceValidator.assertTrusted(url, anchors: [pki.root], line: line)
        XCTAssertNotNil(verdict.hardBinding["c2pa.hash.bmff.v3"], line: line)
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Model"]?.string, "test muxer", line: line)
        let probe = try FFprobeReport.read(url)
        XCTAssertEqual(probe.frames, frames, line: line)
        XCTAssertEqual(probe.decodeErrors, "", line: line)
    }
}
