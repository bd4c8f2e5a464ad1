import COpus

/// Opus through libopus: 48 kHz, 20 ms frames, the settings' bitrate. One owner thread.
public final class OpusEncoder {
    public let channels: Int
    /// Samples (48 kHz) a decoder drops at the start: the Opus pre-skip written to `dOps`.
    public let preSkip: Int
    private let encoder: OpaquePointer
    /// RFC 6716's largest packet; a 20 ms frame at lensd's bitrates is a few hundred bytes.
    private var packet = [UInt8](repeating: 0, count: 1275)

    public init(channels: Int, bitrate: Int) throws {
        guard channels == 1 || channels == 2, (6_000...510_000).contains(bitrate) else {
            throw AudioError(.failed, "Opus takes 1 or 2 channels at 6–510 kb/s, not \(channels) at \(bitrate) b/s")
        }
        var encoder: OpaquePointer?
        let status = copus_create(Int32(channels), Int32(bitrate), &encoder)
        guard status == 0, let encoder else {
            throw AudioError(.failed, "opening the Opus encoder failed: \(String(cString: copus_strerror(status)))",
                             code: Int(status))
        }
        self.channels = channels
        self.encoder = encoder
        preSkip = Int(copus_lookahead(encoder))
    }

    deinit { copus_destroy(encoder) }

    /// One packet from one 20 ms frame: `frameSize` × channels interleaved samples.
    public func encode(_ pcm: ArraySlice<Int16>) throws -> [UInt8] {
        precondition(pcm.count == AudioSettings.frameSize * channels, "an Opus frame is 20 ms")
        let capacity = Int32(packet.count)
        let length = pcm.withUnsafeBufferPointer { samples in
            packet.withUnsafeMutableBufferPointer { copus_encode(encoder, samples.baseAddress, Int32(AudioSettings.frameSize), $0.baseAddress, capacity) }
        }
        guard length > 0 else {
            throw AudioError(.failed, "Opus encoding failed: \(String(cString: copus_strerror(length)))", code: Int(length))
        }
        return Array(packet[..<Int(length)])
    }
}

@available(*, unavailable, message: "OpusEncoder belongs to one thread")
extension OpusEncoder: Sendable {}
