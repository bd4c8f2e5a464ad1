#if canImport(Glibc)
import Glibc
#endif
import LensCrypto

/// JPEG: the manifest store in JPEG XT APP11 segments (`JPEGXT`), bound by `c2pa.hash.data`.
struct JPEGHandler: AssetHandler {
    func matches(head: [UInt8]) -> Bool {
        head.count >= 2 && head[0] == 0xFF && head[1] == JPEGSegment.startOfImage
    }

    func withStore<Result>(in file: borrowing POSIXFile, head: [UInt8], mapping: Bool,
                           _ body: ([UInt8], any BoundAsset) throws -> Result) throws -> Result {
        if mapping, let result = try file.mapped({ try withStore(in: $0, body) }) { return result }
        // Read on from where the sniff stopped: the path may be a pipe.
        return try file.readRest(after: head).withUnsafeBytes { try withStore(in: $0, body) }
    }

    /// The same for a JPEG in memory (valid while `body` runs).
    func withStore<Result>(in jpeg: UnsafeRawBufferPointer, _ body: ([UInt8], any BoundAsset) throws -> Result) throws -> Result {
        let found = try store(in: jpeg)
        return try body(found.store, Bytes(bytes: jpeg, storeRange: found.location))
    }

    func replacingStore(ofFileAt path: String, with newStore: ([UInt8]) throws -> [UInt8]) throws -> StoreSplice {
        let bytes = try POSIXFile(path: path, flags: O_RDONLY).readRest(after: [])
        let found = try bytes.withUnsafeBytes { try store(in: $0) }
        // The new segments may be longer: validators widen the parent's data-hash exclusion for its update.
        return StoreSplice(range: found.location, bytes: JPEGXT.segments(store: try newStore(found.store), chunk: JPEGXT.maximumChunk))
    }

    func sign(inputPath: String, outputPath: String, writer: ManifestWriter) throws {
        try JPEGSigner(writer: writer).sign(inputPath: inputPath, outputPath: outputPath)
    }

    private func store(in jpeg: UnsafeRawBufferPointer) throws -> (store: [UInt8], location: Range<Int>) {
        guard let found = try JPEGXT.manifestStore(in: jpeg, segments: try JPEGSegment.scanHeader(jpeg).segments) else {
            throw C2PAError.noManifest
        }
        return found
    }

    /// A JPEG's bytes, hashed in place.
    struct Bytes: BoundAsset {
        let bytes: UnsafeRawBufferPointer
        let storeRange: Range<Int>

        func dataHash(excluding exclusions: [DataHashAssertion.Exclusion], algorithm: DigestAlgorithm) throws -> [UInt8]? {
            DataHash.compute(bytes, excluding: exclusions, algorithm: algorithm)
        }

        func bmffHash(exclusions: [BMFFHashAssertion.Exclusion], algorithm: DigestAlgorithm, offsets: Bool) throws -> [UInt8] {
            throw C2PAError.unsupported("lensd checks c2pa.hash.bmff on ISO-BMFF files only")
        }
    }
}
