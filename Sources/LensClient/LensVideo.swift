import FoundationEssentials
import LensBus

/// What lensd says about a recorded video (VideoSigned, VideoUnsigned). No sha256: hashing a
/// long video would delay the signal; `LensCamera.fetchResult(_:into:)` returns it.
public struct LensVideoInfo: Sendable, Equatable {
    public var size: UInt64
    /// "video/mp4".
    public var mime: String
    /// Seconds.
    public var duration: Double
    public var frames: UInt32
    /// True when lensd had to rebuild the file from what was written (after a fault or a crash).
    public var recovered: Bool
    /// The video has a sound track (false: recorded silent, by configuration, session or for
    /// want of a capture device).
    public var audio: Bool
    /// VideoUnsigned only: why lensd could not sign the video.
    public var reason: String?
    /// "queued" when the outbox will send it, "disabled" when not (always for unsigned videos).
    public var upload: String?
    /// VideoSigned only: whether the signature carries a trusted RFC 3161 time-stamp, and the
    /// time-stamp authority's time when it does (as LensResultInfo's).
    public var timestamped: Bool?
    public var timestampTime: Date?
    /// The configuration key of the limit that ended the recording (`video-max-duration`,
    /// `video-max-bytes`, `max-result-bytes-per-user`, or `min-free-bytes` for the owner's share
    /// of the free space above it); nil when it was stopped.
    public var limit: String?
    /// Where LensClient copied the video for the delegate (`LensCamera.videoDirectory`); nil in
    /// `events` and when there is no videoDirectory.
    public var fileURL: URL?

    init(_ fields: Fields) throws(LensClientError) {
        size = try fields.uint64("size")
        mime = try fields.string("mime")
        duration = try fields.double("duration")
        frames = try fields.uint32("frames")
        recovered = fields.optionalBool("recovered") ?? false
        audio = fields.optionalBool("audio") ?? false
        reason = fields.optionalString("reason")
        upload = fields.optionalString("upload")
        timestamped = fields.optionalBool("timestamped")
        timestampTime = fields.optionalDate("timestamp_time")
        limit = fields.optionalString("limit")
    }
}

/// How far a recording has got (the VideoRecordingProgress property).
public struct LensVideoProgress: Sendable, Equatable {
    /// The video's result name, known from the start: fetch it by this name if the recording
    /// is cut short (lensd recovers it at its next start).
    public var name: String
    /// Seconds recorded so far.
    public var duration: Double
    /// Bytes written so far, picture and sound.
    public var size: UInt64

    /// nil for the empty a{sv} lensd sends when this session is not recording.
    init?(_ fields: Fields) throws(LensClientError) {
        guard !fields.isEmpty else { return nil }
        name = try fields.string("name")
        duration = try fields.double("duration")
        size = try fields.uint64("size")
    }
}
