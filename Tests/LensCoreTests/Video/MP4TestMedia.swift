import Foundation
import LensCore
import LensMedia
import LensTestSupport

/// Coded frames for the muxer tests, made by real encoders.
enum MP4TestMedia {
    static let frameTicks: UInt32 = 3000  // 30 fps at 90 kHz

    /// `count` JPEG frames of a pattern that moves from frame to frame, so each one differs.
    static func jpegFrames(count: Int, first: Int = 0, width: Int = 320, height: Int = 240) throws -> [VideoSample] {
        try (first..<(first + count)).map { frame in
            let image = RGBImage.filled(width: width, height: height) { x, y in
                (UInt8((x + 4 * frame) & 0xFF), UInt8((y + 2 * frame) & 0xFF), UInt8((x ^ y) & 0xFF))
            }
            return VideoSample(data: try image.encoded(quality: 80), duration: frameTicks, isSync: true)
        }
    }

    /// A journal of `fragments` × `perFragment` MJPEG frames, left unfinished as a crash would;
    /// returns the file size after each fragment.
    @discardableResult
    static func writeMJPEGJournal(at path: String, fragments: Int = 3, perFragment: Int = 10) throws -> (writer: FragmentedMP4Writer, ends: [Int]) {
        let writer = try FragmentedMP4Writer(path: path, track: VideoTrack(format: .jpeg, width: 320, height: 240),
                                             creationTime: Date(timeIntervalSince1970: 1_700_000_000))
        var ends: [Int] = []
        for fragment in 0..<fragments {
            try writer.appendFragment(try jpegFrames(count: perFragment, first: fragment * perFragment))
            ends.append(writer.size)
        }
        return (writer, ends)
    }

    /// An H.264 elementary stream (Annex B) from x264: testsrc 320x240, 30 fps, GOP 30, no B-frames.
    static func encodeH264(seconds: Int, to path: String) throws {
        let result = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30",
                                     "-t", String(seconds), "-c:v", "libx264", "-g", "30", "-bf", "0",
                                     "-pix_fmt", "yuv420p", "-f", "h264", path])
        guard result.status == 0 else { throw TestToolError("ffmpeg: \(String(decoding: result.stderr, as: UTF8.self))") }
    }
}

/// An Annex B H.264 stream cut into what the muxer takes: SPS and PPS for avcC, and access units
/// as 4-byte length-prefixed samples without SPS/PPS/AUD.
struct AnnexBStream {
    var sps: [UInt8] = []
    var pps: [UInt8] = []
    var accessUnits: [VideoSample] = []

    init(_ stream: [UInt8], frameTicks: UInt32) {
        var unit: [[UInt8]] = [], unitHasSlice = false
        func closeUnit() {
            guard unitHasSlice else { return }
            let isSync = unit.contains { $0[0] & 0x1F == 5 }
            accessUnits.append(VideoSample(data: unit.flatMap { Self.lengthPrefixed($0) }, duration: frameTicks, isSync: isSync))
            unit = []
            unitHasSlice = false
        }
        for nal in Self.nalUnits(stream) {
            let type = nal[0] & 0x1F
            let isSlice = type == 1 || type == 5
            // A new access unit starts at SEI/SPS/PPS/AUD or at a slice with first_mb_in_slice 0 (ue(v) bit '1').
            if [6, 7, 8, 9].contains(type) || (isSlice && nal.count > 1 && nal[1] & 0x80 != 0) { closeUnit() }
            switch type {
            case 7: if sps.isEmpty { sps = nal }
            case 8: if pps.isEmpty { pps = nal }
            case 9: break
            default:
                unit.append(nal)
                unitHasSlice = unitHasSlice || isSlice
            }
        }
        closeUnit()
    }

    /// The NAL units between start codes (00 00 01, or 00 00 00 01 whose leading zero ends the previous unit).
    static func nalUnits(_ stream: [UInt8]) -> [[UInt8]] {
        var starts: [Int] = []
        var index = 0
        while index + 2 < stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().compactMap { number, start in
            var end = number + 1 < starts.count ? starts[number + 1] - 3 : stream.count
            while end > start, stream[end - 1] == 0 { end -= 1 }  // trailing_zero_8bits / 4-byte start code
            return end > start ? Array(stream[start..<end]) : nil
        }
    }

    private static func lengthPrefixed(_ nal: [UInt8]) -> [UInt8] {
        let length = UInt32(nal.count)
        return [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] + nal
    }
}
