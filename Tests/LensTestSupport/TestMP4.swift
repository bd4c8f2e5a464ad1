import Foundation

/// Test MP4s made by ffmpeg (testsrc), and what ffmpeg decodes from them.
public enum TestMP4 {
    public enum Kind: String, CaseIterable, Sendable {
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
    public static func make(at url: URL, _ kind: Kind, seconds: Int = 2) throws -> URL {
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

    @discardableResult
    private static func run(_ argv: [String]) throws -> String {
        let result = try runProcess(argv)
        guard result.status == 0 else {
            throw TestToolError("\(argv.joined(separator: " ")) exited \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
