/// One encoded picture, ready for the MP4 muxer.
public struct H264Frame: Sendable {
    /// The access unit as an MP4 sample: 4-byte big-endian length-prefixed NAL units, without SPS/PPS/AUD.
    public var sample: [UInt8]
    /// An IDR: decoding can start here.
    public var isKeyFrame: Bool
    /// On key frames: the sequence and picture parameter sets, NAL payloads without start code
    /// (the avcC box's). The encoder keeps their ids constant, so every IDR repeats the same ones.
    public var sps: [UInt8]?
    public var pps: [UInt8]?

    public init(sample: [UInt8], isKeyFrame: Bool, sps: [UInt8]?, pps: [UInt8]?) {
        self.sample = sample
        self.isKeyFrame = isKeyFrame
        self.sps = sps
        self.pps = pps
    }
}
