import Foundation

/// What ffprobe (Debian's FFmpeg, the reference player here) reads in a video: codec, every frame
/// decoded and counted, the container's duration, and whether ffmpeg's decoder complained.
public struct FFprobeReport: Equatable {
    public let codec: String
    public let frames: Int
    public let duration: Double
    public let width: Int
    public let height: Int
    /// ffmpeg -v error decoding every frame: empty when the stream is clean.
    public let decodeErrors: String

    public static func read(_ file: URL) throws -> FFprobeReport {
        let probe = try runProcess(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                                    "-show_entries", "stream=codec_name,nb_read_frames,width,height:format=duration",
                                    "-of", "json", file.path])
        guard probe.status == 0,
              let json = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any],
              let stream = (json["streams"] as? [[String: Any]])?.first,
              let format = json["format"] as? [String: Any] else {
            throw TestToolError("ffprobe \(file.lastPathComponent): " + String(decoding: probe.stderr, as: UTF8.self))
        }
        // In the stream's own time base: by default frames closer together than the guessed frame
        // rate (a camera's jittery timestamps) land on one output tick, and the null muxer says
        // so at error level although every frame decoded.
        let decode = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-i", file.path, "-enc_time_base", "-1", "-f", "null", "-"])
        return FFprobeReport(
            codec: stream["codec_name"] as? String ?? "", frames: Int(stream["nb_read_frames"] as? String ?? "") ?? -1,
            duration: Double(format["duration"] as? String ?? "") ?? -1,
            width: stream["width"] as? Int ?? 0, height: stream["height"] as? Int ?? 0,
            decodeErrors: String(decoding: decode.stderr, as: UTF8.self) + (decode.status == 0 ? "" : " (exit \(decode.status))"))
    }

    /// The container's metadata tags as ffprobe names them ("location", "com.apple.quicktime.make", …).
    public static func formatTags(_ file: URL) throws -> [String: String] {
        let probe = try runProcess(["ffprobe", "-v", "error", "-show_entries", "format_tags", "-of", "json", file.path])
        guard probe.status == 0, let json = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any],
              let format = json["format"] as? [String: Any] else {
            throw TestToolError("ffprobe \(file.lastPathComponent): " + String(decoding: probe.stderr, as: UTF8.self))
        }
        return format["tags"] as? [String: String] ?? [:]
    }

    /// Where each stream starts and ends on the file's timeline (seconds, as ffprobe reads the
    /// container: start_time and start_time + duration), by codec type ("video", "audio").
    public static func streamTimes(_ file: URL) throws -> [String: (codec: String, start: Double, end: Double)] {
        let probe = try runProcess(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type,codec_name,start_time,duration",
                                    "-of", "json", file.path])
        guard probe.status == 0, let json = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any],
              let streams = json["streams"] as? [[String: Any]] else {
            throw TestToolError("ffprobe \(file.lastPathComponent): " + String(decoding: probe.stderr, as: UTF8.self))
        }
        var times: [String: (codec: String, start: Double, end: Double)] = [:]
        for stream in streams {
            guard let type = stream["codec_type"] as? String, times[type] == nil,
                  let start = Double(stream["start_time"] as? String ?? ""), let duration = Double(stream["duration"] as? String ?? "") else { continue }
            times[type] = (stream["codec_name"] as? String ?? "", start, start + duration)
        }
        return times
    }

    /// The MD5 of every decoded frame, in order (ffmpeg framemd5, last column).
    public static func frameMD5s(_ file: URL) throws -> [String] {
        let r = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-i", file.path, "-map", "0:v:0", "-f", "framemd5", "-"])
        guard r.status == 0 else { throw TestToolError("ffmpeg framemd5 \(file.lastPathComponent): " + String(decoding: r.stderr, as: UTF8.self)) }
        return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) }
    }
}
