import Foundation
import LensCore
import LensMedia
import LensTestSupport
import XCTest

final class MP4WriterTests: XCTestCase {
    func testMJPEGRecordingFinalizesIntoAPlainMP4ThatPlays() throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let path = directory.file("mjpeg.mp4").path
        let (writer, ends) = try MP4TestMedia.writeMJPEGJournal(at: path)
        XCTAssertEqual(writer.duration, 1.0, accuracy: 1e-9)
        let result = try writer.finish()

        let info = try FFprobeReport.read(URL(fileURLWithPath: path))
        XCTAssertEqual([info.codec, "\(info.frames)", "\(info.width)x\(info.height)", "\(info.duration)"], ["mjpeg", "30", "320x240", "1.0"])
        XCTAssertEqual(info.decodeErrors, "")

        let layout = try MP4Oracles.layout(path)
        XCTAssertEqual(layout.boxes.map { String($0.prefix(4)) },
                       ["ftyp", "free", "free", "free", "mdat", "free", "mdat", "free", "mdat", "moov"])
        XCTAssertEqual(layout.boxes[1], "free:65536")
        XCTAssertEqual(layout.bmffHash, result.bmffHash)

        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertEqual(result.size, size)
        XCTAssertGreaterThan(size, ends[2])  // the moov went after the last fragment
        XCTAssertEqual(result.reserve, 28..<(28 + 65536))
        XCTAssertEqual(result.sampleCount, 30)
        XCTAssertEqual(result.duration, 1.0, accuracy: 1e-9)
        XCTAssertEqual(result.droppedBytes, 0)
        XCTAssertEqual(result.path, path)
    }

    func testH264RecordingDecodesToTheSameFramesAsTheRawStream() throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let raw = directory.file("raw.h264").path, path = directory.file("h264.mp4").path
        try MP4TestMedia.encodeH264(seconds: 2, to: raw)
        let stream = AnnexBStream(Array(try Data(contentsOf: URL(fileURLWithPath: raw))), frameTicks: MP4TestMedia.frameTicks)
        XCTAssertEqual(stream.accessUnits.count, 60)

        let writer = try FragmentedMP4Writer(path: path, track: VideoTrack(format: .h264(sps: stream.sps, pps: stream.pps),
                                                                           width: 320, height: 240),
                                             creationTime: Date())
        // One fragment per GOP: each starts at an IDR.
        var gop: [VideoSample] = []
        for unit in stream.accessUnits {
            if unit.isSync, !gop.isEmpty { try writer.appendFragment(gop); gop = [] }
            gop.append(unit)
        }
        try writer.appendFragment(gop)
        let result = try writer.finish()

        let info = try FFprobeReport.read(URL(fileURLWithPath: path))
        XCTAssertEqual([info.codec, "\(info.frames)", "\(info.width)x\(info.height)", "\(info.duration)"], ["h264", "60", "320x240", "2.0"])
        XCTAssertEqual(info.decodeErrors, "")
        let rawFrames = try FFprobeReport.frameMD5s(URL(fileURLWithPath: raw))
        XCTAssertEqual(rawFrames.count, 60)
        XCTAssertEqual(try FFprobeReport.frameMD5s(URL(fileURLWithPath: path)), rawFrames)

        let layout = try MP4Oracles.layout(path)
        XCTAssertEqual(layout.boxes.map { String($0.prefix(4)) },
                       ["ftyp", "free", "free", "free", "mdat", "free", "mdat", "moov"])
        XCTAssertEqual(layout.bmffHash, result.bmffHash)
        XCTAssertEqual(result.reserve, 32..<(32 + 65536))  // ftyp grows by the avc1 brand
        XCTAssertEqual(result.sampleCount, 60)
        XCTAssertEqual(result.duration, 2.0, accuracy: 1e-9)
    }

    func testWriterRefusesMisuse() throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let path = directory.file("misuse.mp4").path
        let (writer, _) = try MP4TestMedia.writeMJPEGJournal(at: path, fragments: 1, perFragment: 2)
        let sizeBefore = writer.size
        XCTAssertThrowsError(try writer.appendFragment([])) { XCTAssertEqual(($0 as? MP4Error)?.kind, .invalidArgument) }
        XCTAssertThrowsError(try writer.appendFragment([VideoSample(data: [], duration: 3000, isSync: true)]))
        XCTAssertEqual(writer.size, sizeBefore)

        // O_EXCL: a second recording never overwrites a file.
        XCTAssertThrowsError(try FragmentedMP4Writer(path: path, track: VideoTrack(format: .jpeg, width: 320, height: 240),
                                                     creationTime: Date())) { XCTAssertEqual(($0 as? MP4Error)?.errno, .exists) }
        XCTAssertThrowsError(try FragmentedMP4Writer(path: directory.file("zero.mp4").path,
                                                     track: VideoTrack(format: .jpeg, width: 0, height: 240), creationTime: Date()))
        XCTAssertThrowsError(try FragmentedMP4Writer(path: directory.file("sps.mp4").path,
                                                     track: VideoTrack(format: .h264(sps: [0x67], pps: [0x68]), width: 320, height: 240),
                                                     creationTime: Date()))

        _ = try writer.finish()
        XCTAssertThrowsError(try writer.finish()) { XCTAssertEqual(($0 as? MP4Error)?.kind, .finished) }
        XCTAssertThrowsError(try writer.appendFragment(try MP4TestMedia.jpegFrames(count: 1))) {
            XCTAssertEqual(($0 as? MP4Error)?.kind, .finished)
        }
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o600)
    }

    func testFinishingAnEmptyRecordingThrows() throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let writer = try FragmentedMP4Writer(path: directory.file("empty.mp4").path,
                                             track: VideoTrack(format: .jpeg, width: 320, height: 240), creationTime: Date())
        XCTAssertThrowsError(try writer.finish()) { XCTAssertEqual(($0 as? MP4Error)?.kind, .noCompleteFragment) }
    }
}
