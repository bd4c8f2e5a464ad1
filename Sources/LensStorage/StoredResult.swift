import FoundationEssentials

/// A finished capture on disk, as its owner may see it.
public struct StoredResult: Sendable, Equatable {
    /// The UUID lensd gave the capture.
    public var name: String
    /// The uid that captured it; only this uid can fetch it.
    public var uid: UInt32
    public var size: Int
    /// SHA-256 of the file, lowercase hex; nil for a video just published (hashing a long
    /// recording would delay its announcement — `ResultStore.result` computes it on demand).
    public var sha256: String?
    public var mime: String
    /// When lensd stored it.
    public var created: Date
    /// False for a video lensd kept unsigned (VideoUnsigned); photos are stored signed only.
    public var signed: Bool
    /// A recording a crash interrupted, finalized at lensd's next start.
    public var recovered: Bool
    /// Absolute path of the file, for lensd's own use; clients get bytes or a memfd, never the path.
    public var path: String

    /// `created`, `signed` and `recovered` default for tools that hand lensd's parts a file of
    /// their own (lens-bench outbox).
    public init(name: String, uid: UInt32, size: Int, sha256: String?, mime: String, created: Date = Date(),
                signed: Bool = true, recovered: Bool = false, path: String) {
        (self.name, self.uid, self.size, self.sha256, self.mime) = (name, uid, size, sha256, mime)
        (self.created, self.signed, self.recovered, self.path) = (created, signed, recovered, path)
    }
}
