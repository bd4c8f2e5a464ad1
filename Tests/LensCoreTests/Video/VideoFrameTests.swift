import Foundation
@testable import LensCamera
import LensImaging
@testable import LensMedia
import LensTestSupport
import XCTest
@testable import LensCore

/// Video frames from the synthetic camera: paced at its rate, stamped with exact frame times,
/// and thumbnails made from them.
final class VideoFrameTests: XCTestCase {
    func testFramesArePacedAtTheFrameRateWithExactTimestamps() throws {
        let camera = SyntheticCamera(width: 320, height: 240, frameRate: 30)
        XCTAssertNil(camera.videoFrameRate)
        try camera.open()
        defer { camera.close() }
        XCTAssertEqual(camera.videoFrameRate, 30)

        let start = ContinuousClock.now
        let frames = try (0..<15).map { _ in
            try camera.withNextVideoFrame { frame -> (timestamp: Double, sequence: UInt64) in
                XCTAssertEqual(frame.width, 320)
                XCTAssertEqual(frame.height, 240)
                guard case .rgb(let rgb) = frame.pixels else { XCTFail("synthetic frames are RGB"); return (0, 0) }
                XCTAssertEqual(rgb.count, 320 * 240 * 3)
                return (frame.timestamp, frame.sequence)
            }
        }
        let elapsed = ContinuousClock.now - start
        // 14 intervals of 1/30 s after the first frame; generous bounds for a busy machine.
        XCTAssertGreaterThan(elapsed, .milliseconds(400))
        XCTAssertLessThan(elapsed, .milliseconds(1500))
        for (previous, next) in zip(frames, frames.dropFirst()) {
            XCTAssertGreaterThan(next.sequence, previous.sequence)
            XCTAssertEqual(next.timestamp - previous.timestamp, Double(next.sequence - previous.sequence) / 30, accuracy: 1e-9)
        }
        for frame in frames { XCTAssertEqual(frame.timestamp, Double(frame.sequence) / 30) }
        // An idle caller gets every frame; a loaded machine (scripts/test runs shards side by side)
        // may cost a few, which the timestamps above show as gaps.
        XCTAssertLessThanOrEqual(frames.last!.sequence - frames.first!.sequence, 22)
    }

    func testACallerThatFallsBehindGetsTheCurrentFrameAndTheGapShows() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let camera = SyntheticCamera(width: 64, height: 48, frameRate: 30, clock: { clock.read() })
        try camera.open()
        defer { camera.close() }
        XCTAssertEqual(try camera.withNextVideoFrame(\.sequence), 0)
        clock.advance(by: 0.5)   // the caller spent half a second elsewhere
        let late = try camera.withNextVideoFrame { ($0.sequence, $0.timestamp) }
        XCTAssertEqual(late.0, 15)
        XCTAssertEqual(late.1, 0.5, accuracy: 1e-9)
        // The clock stands still: the next frame still comes, one interval later in frame time.
        XCTAssertEqual(try camera.withNextVideoFrame(\.sequence), 16)
    }

    func testFramesShowTheZoomedSceneWithItsStamp() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let camera = SyntheticCamera(width: 640, height: 480, frameRate: 30, clock: { clock.read() })
        try camera.open()
        defer { camera.close() }
        try camera.setZoom(2)
        let image = try camera.withNextVideoFrame { frame -> RGBImage in
            guard case .rgb(let rgb) = frame.pixels else { throw TestToolError("not RGB") }
            return RGBImage(rgb: Array(rgb), width: frame.width, height: frame.height)
        }
        XCTAssertEqual(image.markerSize.width, 2 * 480 / 8)
        XCTAssertEqual(image.stampLines(lengths: [7]), ["#000000"])
    }

    func testClosedCameraHasNoVideoFrames() {
        let camera = SyntheticCamera(width: 64, height: 48)
        XCTAssertThrowsError(try camera.withNextVideoFrame { _ in }) { error in
            guard case .failed = error as? CameraError else { return XCTFail("\(error)") }
        }
    }

    func testThumbnailsFromRGBAndJPEGFramesFitThePhotoThumbnailSize() throws {
        let camera = SyntheticCamera(width: 1280, height: 720, frameRate: 30)
        try camera.open()
        defer { camera.close() }
        let fromRGB = try camera.withNextVideoFrame { try VideoThumbnail.make(from: $0) }
        let rgbSize = try JPEGCodec.dimensions(ofJPEG: fromRGB)
        XCTAssertEqual(rgbSize.width, 320)
        XCTAssertEqual(rgbSize.height, 180)

        let jpeg = try RGBImage.gradient(width: 640, height: 480).encoded()
        let fromJPEG = try jpeg.withUnsafeBytes {
            try VideoThumbnail.make(from: VideoFrame(pixels: .jpeg($0), width: 640, height: 480, timestamp: 0, sequence: 0))
        }
        let jpegSize = try JPEGCodec.dimensions(ofJPEG: fromJPEG)
        XCTAssertEqual(jpegSize.width, 320)
        XCTAssertEqual(jpegSize.height, 240)
        // The thumbnail shows the frame: the gradient's corners survive.
        let thumbnail = try RGBImage(decoding: fromJPEG)
        XCTAssertLessThan(thumbnail.pixel(x: 2, y: 2).red, 40)
        XCTAssertGreaterThan(thumbnail.pixel(x: 317, y: 2).red, 215)
    }
}
