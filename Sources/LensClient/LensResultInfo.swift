import FoundationEssentials
import LensBus

/// What lensd says about a stored result (PhotoSigned, FetchResult).
public struct LensResultInfo: Sendable, Equatable {
    public var size: UInt64
    /// Lower-case hex SHA-256 of the exact bytes FetchResult hands out.
    public var sha256: String
    /// "image/jpeg" for photos.
    public var mime: String
    /// PhotoSigned only: "queued" when the outbox will send it, "disabled" when not; nil from
    /// FetchResult and from daemons without an outbox.
    public var upload: String?
    /// PhotoSigned only: whether the signature carries a trusted RFC 3161 time-stamp (lensd's
    /// tsa-url); nil from FetchResult and from daemons without time-stamping.
    public var timestamped: Bool?
    /// When `timestamped`: the time-stamp authority's time.
    public var timestampTime: Date?

    init(_ fields: Fields) throws(LensClientError) {
        size = try fields.uint64("size")
        sha256 = try fields.string("sha256")
        mime = try fields.string("mime")
        upload = fields.optionalString("upload")
        timestamped = fields.optionalBool("timestamped")
        timestampTime = fields.optionalDate("timestamp_time")
    }
}

/// A point in normalized frame coordinates: 0...1 on both axes, (0, 0) top left.
public struct LensPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
