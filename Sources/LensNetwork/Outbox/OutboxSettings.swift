/// Where and how the outbox delivers: lensd's upload-* settings.
public struct OutboxSettings: Sendable, Equatable {
    /// `{name}` and `{ext}` are substituted (see `UploadURL`).
    public var urlTemplate: String
    /// The Authorization header's value, from upload-auth-file; nil: none.
    public var authorization: String?
    /// PEM roots for the server; nil: the system store.
    public var caFile: String?
    public var maxBytes: Int
    /// false: the local copy is removed after a confirmed delivery.
    public var keepLocalCopy: Bool
    /// Cap on the backoff between attempts, in seconds.
    public var retryMaxSeconds: Double
    /// The first retry's delay; each further one doubles it.
    public var firstRetrySeconds: Double = 2
    /// upload-timeout: what an attempt of a small file may take at most, from connecting to the
    /// server's whole answer. A slow server (one dripping its answer, or never answering) then
    /// costs the queue this long, not forever.
    public var attemptSeconds: Double
    /// A larger file's attempt may take longer: at least this many bytes a second (1 Mbit/s) on
    /// top of `attemptSeconds`, so a slow uplink still delivers a long video.
    public static let slowestUplinkBytesPerSecond = 128 << 10

    public init(urlTemplate: String, authorization: String? = nil, caFile: String? = nil, maxBytes: Int = 100 << 20,
                keepLocalCopy: Bool = true, retryMaxSeconds: Double = 3600, attemptSeconds: Double = 300) {
        self.urlTemplate = urlTemplate
        self.authorization = authorization
        self.caFile = caFile
        self.maxBytes = maxBytes
        self.keepLocalCopy = keepLocalCopy
        self.retryMaxSeconds = retryMaxSeconds
        self.attemptSeconds = attemptSeconds
    }

    /// The deadline of one attempt to send `size` bytes.
    public func attemptDeadline(forSize size: Int) -> Double {
        attemptSeconds + Double(size) / Double(Self.slowestUplinkBytesPerSecond)
    }
}
