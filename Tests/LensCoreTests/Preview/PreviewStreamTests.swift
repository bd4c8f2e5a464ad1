import Foundation
@testable import LensCamera
@testable import LensCore
import LensImaging
import LensTestSupport
import XCTest

/// The preview stream on its own: scaling from raw and JPEG frames, the COM segment, and the pipe
/// discipline — frames whole and in order, at most the unfinished frame kept while the reader
/// is away, the reader closing its end seen as the end.
final class PreviewStreamTests: XCTestCase {
    private let source = RGBImage.gradient(width: 1280, height: 720)

    func testTheFormatFitsTheBoxKeepsTheAspectAndCapsTheRate() {
        let format = PreviewFormat(fitting: (1280, 720), into: (640, 480), fps: nil, cameraRate: 60, quality: 75)
        XCTAssertEqual([format.width, format.height], [640, 360])
        XCTAssertEqual(format.fps, 30)
        let tall = PreviewFormat(fitting: (1280, 720), into: (200, 600), fps: 12, cameraRate: 25, quality: 75)
        XCTAssertEqual([tall.width, tall.height], [200, 113])
        XCTAssertEqual(tall.fps, 12)
        // Never enlarged, never faster than the camera.
        let small = PreviewFormat(fitting: (320, 240), into: (640, 480), fps: 30, cameraRate: 5, quality: 75)
        XCTAssertEqual([small.width, small.height, Int(small.fps)], [320, 240, 5])
    }

    func testTheCommentFollowsTheJFIFHeaderAndTheJPEGStillDecodes() throws {
        let jpeg = try source.encoded(quality: 75)
        let marked = try JPEGCodec.inserting(comment: "lensd-preview seq=7 pts_us=123", into: jpeg)
        XCTAssertEqual(Array(marked[2...3]), [0xFF, 0xE0], "APP0 stays first")
        let app0End = 4 + Int(marked[4]) << 8 + Int(marked[5])
        XCTAssertEqual(Array(marked[app0End...(app0End + 1)]), [0xFF, 0xFE])
        let length = Int(marked[app0End + 2]) << 8 + Int(marked[app0End + 3])
        XCTAssertEqual(String(decoding: marked[(app0End + 4)..<(app0End + 2 + length)], as: UTF8.self),
                       "lensd-preview seq=7 pts_us=123")
        XCTAssertEqual(try RGBImage(decoding: marked).rgb, try RGBImage(decoding: jpeg).rgb)
        XCTAssertThrowsError(try JPEGCodec.inserting(comment: "x", into: [0x00, 0x01, 0x02, 0x03]))
    }

    /// Both paths land on the same picture: a raw frame box-downscaled, and a camera JPEG decoded
    /// at 1/2 or 1/4 by TurboJPEG's DCT scaling and box-downscaled the rest of the way.
    func testRawAndJPEGFramesScaleToTheSamePicture() throws {
        let expected = source.rgb.withUnsafeBytes { BoxDownscale.downscale($0, width: 1280, height: 720, toWidth: 320, height: 180) }
        var raw = FrameCopy(), camera = FrameCopy()
        source.rgb.withUnsafeBytes { raw.copy(VideoFrame(pixels: .rgb($0), width: 1280, height: 720, timestamp: 0, sequence: 0)) }
        XCTAssertEqual(try raw.scaledRGB(width: 320, height: 180), expected)
        try source.encoded(quality: 95).withUnsafeBytes {
            camera.copy(VideoFrame(pixels: .jpeg($0), width: 1280, height: 720, timestamp: 0, sequence: 0))
        }
        let fromJPEG = RGBImage(rgb: try camera.scaledRGB(width: 320, height: 180), width: 320, height: 180)
        let difference = zip(fromJPEG.rgb, expected).map { abs(Int($0) - Int($1)) }.max() ?? 255
        XCTAssertLessThan(difference, 8)
    }

    /// A reader that never reads: the pipe fills, the frame under way waits for room, and every
    /// further frame is dropped without being encoded. Once the reader is back, that frame is
    /// finished first, and the stream is whole frames only.
    func testAStoppedReaderHoldsBackOneFrameAndTheStreamStaysWhole() throws {
        let written = Counter()
        let (stream, readEnd) = try PreviewStream.open(format: PreviewFormat(width: 640, height: 360, fps: 30, quality: 90),
                                                      onEnd: { _, _ in }, onFrameWritten: { _ in written.bump() })
        defer { close(readEnd); stream.close() }
        // Noise: each frame far larger than a quarter of the pipe's 64 KiB.
        let noisy = RGBImage.filled(width: 1280, height: 720) { x, y in (UInt8((x * 7919 + y * 104_729) & 0xFF), UInt8((x ^ y) & 0xFF), 9) }
        var sequence: UInt64 = 0
        func offer() {
            noisy.rgb.withUnsafeBytes {
                stream.offer(VideoFrame(pixels: .rgb($0), width: 1280, height: 720, timestamp: Double(sequence) / 30, sequence: sequence))
            }
            sequence += 1
        }
        let deadline = Date().addingTimeInterval(30)
        while stream.stats.dropped < 30 && Date() < deadline { offer() }
        let full = stream.stats
        XCTAssertGreaterThanOrEqual(full.dropped, 30, "\(full)")
        XCTAssertLessThan(full.frames, 4, "\(full)")
        for _ in 0..<10 { offer() }
        XCTAssertEqual(stream.stats.frames, full.frames, "nothing more went out while the reader was away")

        // The reader comes back and drains the pipe on its own thread, to the end of the stream.
        let drained = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var bytes: [UInt8] = []
        Thread {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while case let count = read(readEnd, &chunk, chunk.count), count > 0 { bytes += chunk[..<count] }
            drained.signal()
        }.start()
        // Five more written — the held-back frame first — each next one offered until it is
        // taken (the worker may still be finishing the last), so none is under way at the close.
        for _ in 0..<5 {
            let before = written.value
            while written.value == before && Date() < deadline {
                offer()
                _ = drained.wait(timeout: .now() + .milliseconds(20))
            }
        }
        stream.close()
        XCTAssertEqual(drained.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(stream.stats.frames, full.frames + 5)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID()).mjpeg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        // FFmpeg reads back every frame written, whole, and nothing else.
        let probe = try runProcess(["ffprobe", "-v", "error", "-f", "mjpeg", "-count_frames", "-show_entries",
                                    "stream=width,height,nb_read_frames", "-of", "csv=p=0", file.path])
        XCTAssertEqual(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                       "640,360,\(stream.stats.frames)", String(decoding: probe.stderr, as: UTF8.self))
        let decode = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-f", "mjpeg", "-i", file.path, "-f", "null", "-"])
        XCTAssertEqual(String(decoding: decode.stderr, as: UTF8.self), "")
    }

    func testTheReaderClosingItsEndEndsTheStream() throws {
        let ended = DispatchSemaphore(value: 0)
        let (stream, readEnd) = try PreviewStream.open(format: PreviewFormat(width: 64, height: 36, fps: 30, quality: 75),
                                                      onEnd: { _, error in if error == nil { ended.signal() } })
        defer { stream.close() }
        close(readEnd)
        let deadline = Date().addingTimeInterval(20)
        var sequence: UInt64 = 0
        while ended.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            XCTAssertLessThan(Date(), deadline, "no end seen")
            if Date() > deadline { return }
            source.rgb.withUnsafeBytes {
                stream.offer(VideoFrame(pixels: .rgb($0), width: 1280, height: 720, timestamp: Double(sequence), sequence: sequence))
            }
            sequence += 1
        }
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count: UInt64 = 0
    var value: UInt64 { lock.withLock { count } }
    func bump() { lock.withLock { count += 1 } }
}
