/// What ends a recording from within: its length, its size, and the owner's whole allowance
/// (one result may not outgrow it). Sizes are judged on the finished file, moov and next frame
/// included, so the recording stops while what it keeps still fits, and is never refused.
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

    init(_ configuration: Configuration) {
        duration = configuration.maxVideoDuration
        let allowance = Int(clamping: configuration.maxResultBytesPerUser)
        bytes = min(configuration.maxVideoBytes, allowance)
        bytesKey = allowance < configuration.maxVideoBytes ? "max-result-bytes-per-user" : "video-max-bytes"
    }

    /// The limit the recording reached, if any: `finishedSize` is what the finished file could take
    /// if the recording went on for one more frame.
    func reached(duration recorded: Double, finishedSize: Int) -> Limit? {
        if recorded >= duration { return Limit(key: "video-max-duration", value: "\(duration) s") }
        if finishedSize >= bytes { return Limit(key: bytesKey, value: "\(bytes) bytes") }
        return nil
    }
}
