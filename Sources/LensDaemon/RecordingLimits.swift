import LensCore
import LensStorage

/// What ends a recording from within: its length, its size, the owner's whole allowance (one
/// result may not outgrow it) and the room left in the owner's share of the free space. Sizes
/// are judged on the finished file, moov and next frame included, so the recording stops while
/// what it keeps still fits, and is never refused.
struct RecordingLimits {
    struct Limit: Equatable, Sendable {
        /// The configuration key that set it, as VideoSigned's `limit` names it.
        let key: String
        let value: String

        var description: String { "\(key) (\(value))" }
    }

    let duration: Double
    let bytes: Int
    private let bytesKey: String

    /// `share`: the owner's, at the start; nil when the file system cannot say.
    init(_ configuration: Configuration, share: FreeSpaceShare?) {
        duration = configuration.maxVideoDuration
        let caps = [("video-max-bytes", configuration.maxVideoBytes),
                    ("max-result-bytes-per-user", Int(clamping: configuration.maxResultBytesPerUser)),
                    ("min-free-bytes", share.map { Int(clamping: $0.room) } ?? .max)]
        let tightest = caps.min { $0.1 < $1.1 }!
        (bytesKey, bytes) = tightest
    }

    /// The limit the recording reached, if any: `finishedSize` is what the finished file could take
    /// if the recording went on for one more frame.
    func reached(duration recorded: Double, finishedSize: Int) -> Limit? {
        if recorded >= duration { return Limit(key: "video-max-duration", value: "\(duration) s") }
        if finishedSize >= bytes { return Limit(key: bytesKey, value: "\(bytes) bytes") }
        return nil
    }
}
