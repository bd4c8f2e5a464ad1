import Foundation
@testable import LensCamera
@testable import LensMedia
import LensTestSupport
import XCTest
@testable import LensCore

/// Pictures to encode and the decoders that judge the result.
enum H264TestSupport {
    /// `count` frames of the synthetic camera (sweeping bar, frame stamp) as I420, rendered
    /// without waiting: the camera's clock is stepped one frame interval at a time.
    static func syntheticFrames(width: Int, height: Int, count: Int, frameRate: Double = 30) throws -> [I420Image] {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let camera = SyntheticCamera(width: width, height: height, frameRate: frameRate, clock: { clock.read() })
        try camera.open()
        defer { camera.close() }
        var rgb = [UInt8](repeating: 0, count: camera.frameByteCount)
        return (0..<count).map { _ in
            defer { clock.advance(by: 1 / frameRate) }
            _ = rgb.withUnsafeMutableBytes { camera.renderFrame(into: $0) }
            var image = I420Image(width: width, height: height)
            rgb.withUnsafeBytes { PixelConversion.convert(rgb: $0, width: width, height: height, into: &image) }
            return image
        }
    }

    /// Detail everywhere, moving every frame, like a camera panning over a textured scene:
    /// smooth pseudo-random blobs (8-pixel grid, bilinear) plus fine grain, panned 3 pixels
    /// right and 2 down per frame, so the rate control has to spend its budget (the synthetic
    /// scene is mostly flat). Rows are copied out of one texture, which keeps debug builds quick.
    static func movingTexture(width: Int, height: Int, count: Int) -> [I420Image] {
        let textureWidth = width + 3 * count, textureHeight = height + 2 * count, cell = 8
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 56)
        }
        let gridWidth = textureWidth / cell + 2
        let grid = (0..<gridWidth * (textureHeight / cell + 2)).map { _ in random() }
        var texture = [UInt8](repeating: 0, count: textureWidth * textureHeight)
        for y in 0..<textureHeight {
            let row = y / cell, fy = y % cell
            for x in 0..<textureWidth {
                let column = x / cell, fx = x % cell
                let top = grid[row * gridWidth + column] * (cell - fx) + grid[row * gridWidth + column + 1] * fx
                let bottom = grid[(row + 1) * gridWidth + column] * (cell - fx) + grid[(row + 1) * gridWidth + column + 1] * fx
                let smooth = (top * (cell - fy) + bottom * fy) / (cell * cell)
                texture[y * textureWidth + x] = UInt8(16 + (smooth * 7 + random() % 32) * 219 / (255 * 7 + 31))
            }
        }
        return (0..<count).map { frame in
            var image = I420Image(width: width, height: height)
            for y in 0..<height {
                let from = (y + 2 * frame) * textureWidth + 3 * frame
                image.y.replaceSubrange(y * width ..< (y + 1) * width, with: texture[from ..< from + width])
            }
            return image
        }
    }

    /// The frames as a raw H.264 elementary stream (Annex B): SPS and PPS before each key
    /// frame, then the sample's NAL units, each behind a start code.
    static func annexB(_ frames: [H264Frame]) throws -> Data {
        let startCode: [UInt8] = [0, 0, 0, 1]
        var stream = Data()
        for frame in frames {
            if let sps = frame.sps, let pps = frame.pps { stream += startCode + sps + startCode + pps }
            var offset = 0
            while offset < frame.sample.count {
                guard offset + 4 <= frame.sample.count else { throw TestToolError("truncated length prefix") }
                let length = frame.sample[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                guard length > 0, offset + 4 + length <= frame.sample.count else { throw TestToolError("bad NAL length \(length)") }
                stream += startCode + frame.sample[offset + 4 ..< offset + 4 + length]
                offset += 4 + length
            }
        }
        return stream
    }

    /// ffprobe's `key=value` lines for the first video stream, counting decoded frames.
    static func probe(_ file: URL) throws -> [String: String] {
        let result = try runProcess(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                                     "-show_entries", "stream=codec_name,profile,width,height,nb_read_frames,color_range,color_space",
                                     "-of", "default=noprint_wrappers=1", file.path])
        guard result.status == 0 else { throw TestToolError("ffprobe: " + String(decoding: result.stderr, as: UTF8.self)) }
        return Dictionary(String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The indices of the frames FFmpeg's decoder calls key frames.
    static func decodedKeyFrames(_ file: URL) throws -> [Int] {
        let result = try runProcess(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame",
                                     "-of", "csv=p=0", file.path])
        guard result.status == 0 else { throw TestToolError("ffprobe: " + String(decoding: result.stderr, as: UTF8.self)) }
        let flags = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        return flags.indices.filter { flags[$0].hasPrefix("1") }
    }

    /// FFmpeg's decode as yuv420p planes, one Data per frame; whatever FFmpeg complains about
    /// (with -v error) is returned too.
    static func decode(_ file: URL, width: Int, height: Int) throws -> (frames: [Data], complaints: String) {
        let raw = file.deletingPathExtension().appendingPathExtension("yuv")
        let result = try runProcess(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", file.path,
                                     "-f", "rawvideo", "-pix_fmt", "yuv420p", raw.path])
        guard result.status == 0 else { throw TestToolError("ffmpeg: " + String(decoding: result.stderr, as: UTF8.self)) }
        let bytes = try Data(contentsOf: raw), frameSize = width * height * 3 / 2
        let frames = stride(from: 0, to: bytes.count - frameSize + 1, by: frameSize).map { bytes[$0 ..< $0 + frameSize] }
        return (frames.map { Data($0) }, String(decoding: result.stderr, as: UTF8.self))
    }

    /// Peak signal-to-noise ratio of a decoded luma plane against the source, in dB.
    static func lumaPSNR(_ decoded: Data, _ source: I420Image) -> Double {
        let count = source.width * source.height
        let squaredError = zip(decoded.prefix(count), source.y).reduce(0.0) { sum, pair in
            let difference = Double(pair.0) - Double(pair.1)
            return sum + difference * difference
        }
        return squaredError == 0 ? .infinity : 10 * log10(255 * 255 / (squaredError / Double(count)))
    }
}
