/// How a recording's sound is captured and coded: 48 kHz S16 from an ALSA PCM, Opus in 20 ms frames.
public struct AudioSettings: Sendable, Equatable {
    public static let sampleRate = 48_000
    /// Samples per channel in one Opus frame (20 ms).
    public static let frameSize = 960

    /// An ALSA PCM name ("default", "hw:1,0", "plughw:Loopback,1", …).
    public var device: String
    /// 1 or 2.
    public var channels: Int
    /// Bits per second.
    public var bitrate: Int

    /// `bitrate` nil: 64 kb/s mono, 96 kb/s stereo.
    public init(device: String = "default", channels: Int = 1, bitrate: Int? = nil) {
        self.device = device
        self.channels = channels
        self.bitrate = bitrate ?? Self.defaultBitrate(channels: channels)
    }

    public static func defaultBitrate(channels: Int) -> Int { channels == 2 ? 96_000 : 64_000 }
}
