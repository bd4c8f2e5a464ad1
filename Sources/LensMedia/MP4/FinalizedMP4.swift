/// A plain (non-fragmented) MP4 left in place by `FragmentedMP4Writer.finish()` or `MP4Recovery`,
/// ready for `MP4Signer.signInPlace`.
public struct FinalizedMP4: Sendable {
    public var path: String
    /// The `free` box after `ftyp`, header included.
    public var reserve: Range<Int>
    /// c2pa.hash.bmff.v3 (standard exclusions) of the file as it now is.
    public var bmffHash: [UInt8]
    /// Seconds: the sum of the sample durations / 90000.
    public var duration: Double
    public var sampleCount: Int
    /// File size in bytes.
    public var size: Int
    /// A torn tail that recovery cut off (0 after a clean stop).
    public var droppedBytes: Int
    /// Seconds of sound (sum of the Opus packet durations / 48000); nil when the file has no sound track.
    public var audioDuration: Double?

    public init(path: String, reserve: Range<Int>, bmffHash: [UInt8], duration: Double, sampleCount: Int,
                size: Int, droppedBytes: Int, audioDuration: Double? = nil) {
        self.path = path
        self.reserve = reserve
        self.bmffHash = bmffHash
        self.duration = duration
        self.sampleCount = sampleCount
        self.size = size
        self.droppedBytes = droppedBytes
        self.audioDuration = audioDuration
    }
}
