#if canImport(Glibc)
import Glibc
#endif

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
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        let head = try file.read(count: 8, at: 0)
        if head.count >= 2, head[0] == 0xFF, head[1] == JPEGSegment.startOfImage {
            return try jpeg(try file.readRest(after: []), newStore)
        }
        guard head.count == 8, Array(head[4..<8]) == Array("ftyp".utf8) else {
            throw C2PAError.unsupported("\(path) is neither a JPEG nor an MP4")
        }
        let boxes = try BMFFScanner.rootBoxes(of: file).filter(\.isC2PA)
        guard boxes.count == 1, let box = boxes.first,
              let store = try ContentProvenanceBox.manifestStore(payload: try file.read(count: box.size - box.headerSize, at: box.payload.lowerBound))
        else { throw C2PAError.noManifest }
        let updated = try newStore(store)
        guard ContentProvenanceBox.overhead + updated.count <= box.size, box.headerSize == 24 else {
            throw C2PAError.doesNotFit(needed: ContentProvenanceBox.overhead + updated.count, available: box.size)
        }
        return StoreSplice(range: box.range, bytes: try ContentProvenanceBox.encode(store: updated, size: box.size))
    }

    private static func jpeg(_ bytes: [UInt8], _ newStore: ([UInt8]) throws -> [UInt8]) throws -> StoreSplice {
        let found = try bytes.withUnsafeBytes { raw in
            try JPEGXT.manifestStore(in: raw, segments: try JPEGSegment.scanHeader(raw).segments)
        }
        guard let found else { throw C2PAError.noManifest }
        return StoreSplice(range: found.location, bytes: JPEGXT.segments(store: try newStore(found.store), chunk: JPEGXT.maximumChunk))
    }
}
