/// What the H.264 encoder is asked for. Bitrate mode with a cap: FACTS §4 found that a fixed
/// bitrate gives the same quality as CRF at less than half the bits on sensor noise.
public struct H264Settings: Sendable {
    /// 2.5 Mb/s at 720p (14 MB per 45 s at the quality measured in FACTS §4).
    public static let referenceBitrate = 2_500_000
    static let referencePixels = 1280 * 720
    /// Below this the picture falls apart at small sizes, whatever the pixel count says.
    static let minimumBitrate = 100_000

    public var width: Int
    public var height: Int
    public var frameRate: Double
    /// Bits per second; by default 2.5 Mb/s at 720p, scaled with the pixel count.
    public var bitrate: Int
    /// The rate control's cap (bits per second); by default 1.5 × bitrate, room for key frames.
    public var maxBitrate: Int
    /// Frames from one IDR to the next; by default 2 seconds' worth.
    public var keyFrameInterval: Int

    public init(width: Int, height: Int, frameRate: Double, bitrate: Int? = nil, keyFrameInterval: Int? = nil) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        let scaled = Self.referenceBitrate * max(0, width) * max(0, height) / Self.referencePixels
        self.bitrate = bitrate ?? max(Self.minimumBitrate, scaled)
        maxBitrate = self.bitrate * 3 / 2
        let twoSeconds = frameRate.isFinite ? Int((frameRate * 2).rounded()) : 0
        self.keyFrameInterval = keyFrameInterval ?? max(1, twoSeconds)
    }
}
