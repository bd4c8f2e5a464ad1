import Foundation
import LensCore
import LensMedia

/// Sound for the audio tests: a sine tone, and Opus packets of it from the real encoder.
enum AudioTestMedia {
    /// `frames` frames of a `frequency` Hz sine at half scale, interleaved over `channels`, starting at frame `first`.
    static func tone(frequency: Double, frames: Int, first: Int = 0, channels: Int = 1) -> [Int16] {
        (first..<(first + frames)).flatMap { index in
            let value = Int16(16_000 * sin(2 * Double.pi * frequency * Double(index) / 48_000))
            return repeatElement(value, count: channels)
        }
    }

    /// `count` 20 ms Opus packets of the tone, and the encoder's pre-skip.
    static func opusTone(frequency: Double, packets count: Int, channels: Int = 1) throws -> (packets: [AudioSample], preSkip: Int) {
        let encoder = try OpusEncoder(channels: channels, bitrate: AudioSettings.defaultBitrate(channels: channels))
        let packets = try (0..<count).map { index in
            let pcm = tone(frequency: frequency, frames: AudioSettings.frameSize, first: index * AudioSettings.frameSize, channels: channels)
            return AudioSample(data: try encoder.encode(pcm[...]), duration: UInt32(AudioSettings.frameSize))
        }
        return (packets, encoder.preSkip)
    }
}
