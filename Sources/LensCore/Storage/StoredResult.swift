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
    /// Absolute path of the file, for lensd's own use; clients get bytes or a memfd, never the path.
    public var path: String

    /// For tools that hand lensd's parts a file of their own (lens-bench outbox).
    public init(name: String, uid: UInt32, size: Int, sha256: String?, mime: String, path: String) {
        (self.name, self.uid, self.size, self.sha256, self.mime, self.path) = (name, uid, size, sha256, mime, path)
    }
}
