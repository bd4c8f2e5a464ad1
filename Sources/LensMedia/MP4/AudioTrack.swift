/// A recording's sound track: Opus at 48 kHz (the Opus-in-ISOBMFF encapsulation: an `Opus`
/// sample entry with its `dOps`, one 20 ms packet per sample, timescale 48000).
public struct AudioTrack: Sendable, Equatable {
    public var channels: Int
    /// Samples the decoder drops at the start (the encoder's look-ahead).
    public var preSkip: Int

    public init(channels: Int, preSkip: Int) {
        self.channels = channels
        self.preSkip = preSkip
    }

    static let timescale: UInt32 = 48_000
}

/// One Opus packet.
public struct AudioSample: Sendable {
    public var data: [UInt8]
    /// In 48 kHz ticks (960 for a 20 ms packet).
    public var duration: UInt32

    public init(data: [UInt8], duration: UInt32) {
        self.data = data
        self.duration = duration
    }
}
