import LensTestSupport
import Foundation
@testable import C2PA

/// Test MP4s made by ffmpeg (testsrc), and what ffmpeg decodes from them.
enum TestMP4 {
    enum Kind: String, CaseIterable {
        /// H.264, ffmpeg's default layout: ftyp, free (8 bytes), mdat, moov.
        case h264MoovLast
        /// H.264 with `+faststart`: ftyp, moov, free, mdat.
        case h264MoovFirst
        /// MJPEG in the mp4 muxer (mp4v, OTI 0x6C), moov last.
        case mjpeg
        /// H.264 cut into fragments (moof/mdat pairs) behind an empty moov.
        case fragmented
    }

    @discardableResult
    static func make(at url: URL, _ kind: Kind, seconds: Int = 2) throws -> URL {
        var argv = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-t", String(seconds)]
        switch kind {
        case .h264MoovLast: argv += ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
        case .h264MoovFirst: argv += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
        case .mjpeg: argv += ["-c:v", "mjpeg"]
        case .fragmented: argv += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "frag_keyframe+empty_moov"]
        }
        try run(argv + ["-f", "mp4", url.path])
        return url
    }

    /// ffmpeg's per-frame MD5s of every decoded frame (with timestamps and sizes).
    static func frameMD5(_ url: URL) throws -> String {
        try run(["ffmpeg", "-v", "error", "-i", url.path, "-f", "framemd5", "-"])
    }

    /// Copies `input` with a `free` box of `size` bytes spliced in right after ftyp (chunk offsets
    /// moved to match), the layout lensd's recorder writes; returns the box's range.
    static func withReserve(_ input: URL, size: Int, into output: URL) throws -> Range<Int> {
        var bytes = Array(try Data(contentsOf: input))
        let boxes = try BMFFScanner.children(of: bytes[...], at: 0)
        for moov in boxes where moov.type == "moov" {
            var moved = Array(bytes[moov.range])
            try MP4ChunkOffsets.shift(moov: &moved, box: moov, by: size)
            bytes.replaceSubrange(moov.range, with: moved)
        }
        var free: [UInt8] = []
        free.appendBigEndian(UInt32(size))
        free.append(ascii: "free")
        free += [UInt8](repeating: 0, count: size - 8)
        bytes.insert(contentsOf: free, at: boxes[0].end)
        try Data(bytes).write(to: output)
        return boxes[0].end..<(boxes[0].end + size)
    }

    @discardableResult
    private static func run(_ argv: [String]) throws -> String {
        let result = try runProcess(argv)
        guard result.status == 0 else {
            throw TestToolError("\(argv.joined(separator: " ")) exited \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
