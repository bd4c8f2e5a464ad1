import Foundation
import LensCamera
import LensCore
import LensMedia
import LensTestSupport
import XCTest

/// Frames in, journal out: sample durations from the frames' own timestamps, one fragment per
/// GOP or per second of MJPEG, the first frame's thumbnail. FFmpeg judges the files.
final class VideoRecorderTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try temporaryDirectory(prefix: "lensd-recorder")
    }

    /// Frames 5…9 never arrive (a busy camera thread): the frame before them lasts six frame
    /// intervals, so the file plays for the time that passed, not for 15 frames at 30 fps.
    func testMissingFramesLengthenTheSampleBeforeThem() throws {
        for encoding in [VideoEncoding.h264(bitrate: nil), .mjpeg(quality: 80)] {
            let path = directory.file("gap-\(encoding).mp4").path
            let recorder = VideoRecorder(path: path, encoding: encoding, frameRate: 30, creationTime: Date())
            try feed(recorder, frames: Array(0..<5) + Array(10..<20))
            XCTAssertEqual(recorder.duration, 20.0 / 30, accuracy: 1e-6)
            let video = try recorder.finish()
            XCTAssertEqual(video.duration, 20.0 / 30, accuracy: 1e-6)
            XCTAssertEqual(video.sampleCount, 15)
            let probe = try FFprobeReport.read(URL(fileURLWithPath: path))
            XCTAssertEqual(probe.frames, 15, "\(encoding)")
            XCTAssertEqual(probe.duration, 20.0 / 30, accuracy: 0.002, "\(encoding)")
            XCTAssertEqual(probe.decodeErrors, "", "\(encoding)")
        }
    }

    /// H.264 fragments start at key frames (one a second); MJPEG's hold a second of frames.
    func testOneFragmentPerSecondAndAThumbnailOfTheFirstFrame() throws {
        for (encoding, codec) in [(VideoEncoding.h264(bitrate: nil), "h264"), (.mjpeg(quality: 80), "mjpeg")] {
            let path = directory.file("\(codec).mp4").path
            let recorder = VideoRecorder(path: path, encoding: encoding, frameRate: 30, creationTime: Date())
            try feed(recorder, frames: Array(0..<75))
            let thumbnail = try XCTUnwrap(recorder.thumbnail)
            XCTAssertEqual(Array(thumbnail.prefix(2)), [0xFF, 0xD8])
            _ = try recorder.finish()
            let boxes = try rootBoxTypes(path)
            XCTAssertEqual(boxes.filter { $0 == "mdat" }.count, 3, "\(codec): \(boxes)")
            XCTAssertEqual(try FFprobeReport.read(URL(fileURLWithPath: path)).codec, codec)
        }
    }

    func testARecorderWithoutFramesHasNothingToFinish() throws {
        let path = directory.file("empty.mp4").path
        let recorder = VideoRecorder(path: path, encoding: .h264(bitrate: nil), frameRate: 30, creationTime: Date())
        XCTAssertThrowsError(try recorder.finish())
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    /// Synthetic camera frames `numbers`, stamped number / 30 s.
    private func feed(_ recorder: VideoRecorder, frames numbers: [Int]) throws {
        let camera = SyntheticCamera(width: 160, height: 120, frameRate: 30)
        try camera.open()
        defer { camera.close() }
        var rgb = [UInt8](repeating: 0, count: camera.frameByteCount)
        for number in numbers {
            _ = rgb.withUnsafeMutableBytes { camera.renderFrame(into: $0) }
            try rgb.withUnsafeBytes {
                try recorder.append(VideoFrame(pixels: .rgb($0), width: 160, height: 120,
                                               timestamp: Double(number) / 30, sequence: UInt64(number)))
            }
        }
    }

    /// Root box types, read with nothing of lensd's.
    private func rootBoxTypes(_ path: String) throws -> [String] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var types: [String] = [], offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }
}
