import Foundation

/// What FFmpeg (the reference player) finds in a file's first sound stream: its codec and
/// duration, whether it decodes without a complaint, and the decoded sound itself (mono, 48 kHz).
public struct AudioProbe {
    public let codec: String
    public let channels: Int
    /// Seconds: the stream's duration as ffprobe reads it from the container.
    public let duration: Double
    /// ffmpeg -v error decoding the sound: empty when it is clean.
    public let decodeErrors: String
    /// The decoded sound, mixed down to mono, 48 kHz.
    public let samples: [Int16]

    /// nil when the file has no sound stream.
    public static func read(_ file: URL) throws -> AudioProbe? {
        let probe = try runProcess(["ffprobe", "-v", "error", "-select_streams", "a:0",
                                    "-show_entries", "stream=codec_name,channels,duration", "-of", "json", file.path])
        guard probe.status == 0, let json = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any] else {
            throw TestToolError("ffprobe \(file.lastPathComponent): " + String(decoding: probe.stderr, as: UTF8.self))
        }
        guard let stream = (json["streams"] as? [[String: Any]])?.first else { return nil }
        let decode = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-i", file.path, "-map", "0:a:0",
                                     "-ac", "1", "-ar", "48000", "-f", "s16le", "-"])
        let pcm = decode.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return AudioProbe(codec: stream["codec_name"] as? String ?? "", channels: stream["channels"] as? Int ?? 0,
                          duration: Double(stream["duration"] as? String ?? "") ?? -1,
                          decodeErrors: String(decoding: decode.stderr, as: UTF8.self) + (decode.status == 0 ? "" : " (exit \(decode.status))"),
                          samples: pcm)
    }

    /// The strongest frequency (Hz, in `step` Hz steps over 50 Hz–5 kHz) in the loudest 0.2 s of
    /// the sound (so that silence filling a device's stalls does not decide), and how much
    /// stronger it is than the next strongest one not next to it.
    public func dominantFrequency(step: Double = 10) -> (frequency: Double, ratio: Double) {
        let window = 9600  // 0.2 s
        guard samples.count >= window else { return (0, 0) }
        let starts = stride(from: 0, through: samples.count - window, by: window)
        let loudest = starts.max { a, b in Self.energy(samples[a..<(a + window)]) < Self.energy(samples[b..<(b + window)]) } ?? 0
        let slice = samples[loudest..<(loudest + window)].map { Double($0) }
        let powers = stride(from: 50.0, through: 5000, by: step).map { ($0, Self.goertzel(slice, frequency: $0)) }
        guard let best = powers.max(by: { $0.1 < $1.1 }), best.1 > 0 else { return (0, 0) }
        let others = powers.filter { abs($0.0 - best.0) > 5 * step }.map(\.1).max() ?? 0
        return (best.0, others > 0 ? best.1 / others : .infinity)
    }

    private static func energy(_ samples: ArraySlice<Int16>) -> Double {
        samples.reduce(0) { $0 + Double($1) * Double($1) }
    }

    /// The power of `frequency` in `samples` (48 kHz), by Goertzel's algorithm.
    static func goertzel(_ samples: [Double], frequency: Double) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / 48_000)
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = sample + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }
}
