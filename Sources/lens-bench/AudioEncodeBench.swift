import Foundation
import LensCore
import LensMedia

/// Part of `video`: what coding a recording's sound costs — libopus at lensd's settings on a
/// tone with noise (speech-like content is no cheaper for Opus), as thread CPU time per second of
/// sound, i.e. the share of one core sound takes while recording (goal ≤ 3 %).
struct AudioEncodeBench {
    var seconds = 60

    func run(runs: Int) throws {
        for channels in [1, 2] {
            let settings = AudioSettings(channels: channels)
            let pcm = Self.sound(seconds: seconds, channels: channels)
            var shares: [Double] = []
            for _ in 0..<runs {
                let encoder = try OpusEncoder(channels: channels, bitrate: settings.bitrate)
                let frame = AudioSettings.frameSize * channels
                let start = Self.threadCPUSeconds()
                for offset in stride(from: 0, to: pcm.count, by: frame) { _ = try encoder.encode(pcm[offset..<(offset + frame)]) }
                shares.append((Self.threadCPUSeconds() - start) / Double(seconds) * 100)
            }
            // CPU ms per second of sound and the share of one core are one figure in two units.
            let share = Measure.median(shares)
            print(String(format: "sound: Opus %@ %d kb/s, 20 ms frames: %.1f ms of CPU per second of sound, %.2f %% of one core "
                         + "(median of %d; goal ≤ 3 %%)", channels == 1 ? "mono" : "stereo", settings.bitrate / 1000, share * 10, share, runs))
        }
    }

    /// A 440 Hz tone with a 5 Hz tremolo and white noise, interleaved.
    private static func sound(seconds: Int, channels: Int) -> [Int16] {
        var generator = SystemRandomNumberGenerator()
        return (0..<(seconds * AudioSettings.sampleRate)).flatMap { index in
            let time = Double(index) / Double(AudioSettings.sampleRate)
            let tone = 8000 * sin(2 * .pi * 440 * time) * (0.6 + 0.4 * sin(2 * .pi * 5 * time))
            return (0..<channels).map { _ in Int16(tone + Double(Int.random(in: -1500...1500, using: &generator))) }
        }
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
