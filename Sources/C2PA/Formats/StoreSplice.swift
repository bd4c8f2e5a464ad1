/// Where a signed asset's manifest store lies and what to put there instead, for adding an update
/// manifest: in a JPEG the APP11 segments (the new ones may be longer: the parent's data-hash
/// exclusion is widened by validators for its update), in an MP4 the C2PA `uuid` box, whose size
/// stays (the store must fit the padding left when it was signed, so no sample moves). Writing the
/// new file is the caller's: copy what is outside `range`, put `bytes` in its place.
public struct StoreSplice: Sendable {
    public let range: Range<Int>
    public let bytes: [UInt8]

    /// The store of the JPEG or MP4 at `path` replaced by `newStore(store)`.
    public static func replacingStore(ofFileAt path: String, with newStore: ([UInt8]) throws -> [UInt8]) throws -> StoreSplice {
        guard let format = try AssetFormat(fileAt: path) else {
            throw C2PAError.unsupported("\(path) is neither a JPEG nor an MP4")
        }
        return try format.handler.replacingStore(ofFileAt: path, with: newStore)
    }
}
