import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import LensCrypto

/// Embeds a signed manifest store into a JPEG as APP11 segments right after APP0 (or SOI), and
/// with `metadata` the Exif and XMP APP1 segments before them. The hard binding excludes exactly
/// the APP11 segments, so the data hash is the hash of the JPEG with its metadata segments (the
/// signature covers them): it is computed while a second thread copies the bytes.
public struct JPEGSigner: Sendable {
    public let writer: ManifestWriter
    /// JUMBF bytes per APP11 segment.
    public let chunkSize: Int
    /// What the Exif and XMP segments say; nil writes none (a JPEG signed as it is).
    public let metadata: CaptureMetadata?

    public init(writer: ManifestWriter, chunkSize: Int = 65_000, metadata: CaptureMetadata? = nil) throws {
        guard (1...JPEGXT.maximumChunk).contains(chunkSize) else {
            throw C2PAError.unsupported("APP11 chunk size must be 1...\(JPEGXT.maximumChunk)")
        }
        self.writer = writer
        self.chunkSize = chunkSize
        self.metadata = metadata
    }

    /// Signs a JPEG held in memory: the bytes are copied into the result on a second thread while
    /// this one hashes them, so the copy (and faulting in the result's fresh pages) costs no time
    /// beside the hash.
    public func sign(_ jpeg: [UInt8]) throws -> [UInt8] {
        try jpeg.withUnsafeBytes { raw in
            guard let insertion = try Self.insertionOffset(raw, isWholeFile: true) else {
                throw C2PAError.malformed("JPEG has no start of scan")
            }
            let added = try metadataSegments(raw)
            let storeAt = insertion + added.count
            let plan = try layout(insertionAt: storeAt)
            nonisolated(unsafe) let hasher = Hasher(.sha256)  // used by the hashing job alone until it ends
            let gap = storeAt + plan.segmentsLength
            // Uninitialized, not zero-filled: every byte is written below, so zeroing would be a
            // third pass over a 12 MP photo.
            var out = [UInt8](unsafeUninitializedCapacity: jpeg.count + added.count + plan.segmentsLength) { target, count in
                // Both jobs only read the input; only the copy writes the result.
                nonisolated(unsafe) let head = UnsafeRawBufferPointer(rebasing: raw[..<insertion])
                nonisolated(unsafe) let rest = UnsafeRawBufferPointer(rebasing: raw[insertion...])
                nonisolated(unsafe) let base = UnsafeMutableRawPointer(target.baseAddress!)
                added.withUnsafeBytes { added in
                    nonisolated(unsafe) let added = added
                    DispatchQueue.concurrentPerform(iterations: 2) { job in
                        if job == 0 {
                            hasher.update(head)
                            hasher.update(added)
                            hasher.update(rest)
                        } else {
                            base.copyMemory(from: head.baseAddress!, byteCount: head.count)
                            if !added.isEmpty { (base + insertion).copyMemory(from: added.baseAddress!, byteCount: added.count) }
                            (base + gap).copyMemory(from: rest.baseAddress!, byteCount: rest.count)
                        }
                    }
                }
                count = target.count
            }
            let segments = JPEGXT.segments(store: try plan.store(hash: hasher.finalize()), chunk: chunkSize)
            precondition(segments.count == plan.segmentsLength, "the segments fill exactly the gap left for them")
            out.replaceSubrange(storeAt..<gap, with: segments)
            return out
        }
    }

    /// Signs the JPEG at `inputPath` into `outputPath` (created or truncated) from a read-only
    /// mapping of the input, atomically (`AtomicOutput`): the header goes out first, a gap of the
    /// store's final size is left, and while a second thread writes the rest of the mapping after
    /// the gap, this one hashes it, so the copy costs no time beside the hash. The signed store
    /// goes into the gap at the end.
    public func sign(inputPath: String, outputPath: String) throws {
        let input = try POSIXFile(path: inputPath, flags: O_RDONLY)
        try input.withBytes { raw in
            guard let insertion = try Self.insertionOffset(raw, isWholeFile: true) else {
                throw C2PAError.malformed("JPEG has no start of scan")
            }
            let added = try metadataSegments(raw)
            let storeAt = insertion + added.count
            let plan = try layout(insertionAt: storeAt)
            try AtomicOutput.write(to: outputPath) { output in
                let hasher = Hasher(.sha256)
                let head = UnsafeRawBufferPointer(rebasing: raw[..<insertion])
                hasher.update(head)
                try output.write(head)
                try added.withUnsafeBytes { added in
                    hasher.update(added)
                    try output.write(added)
                }
                try output.seek(to: storeAt + plan.segmentsLength)
                let writer = try BackgroundWriter(output: output)
                let rest = UnsafeRawBufferPointer(rebasing: raw[insertion...])
                // The writer only reads the mapping, so hashing it meanwhile is safe.
                try writer.write(rest)
                hasher.update(rest)
                try writer.finish()
                let store = try plan.store(hash: hasher.finalize())
                try output.write(JPEGXT.segments(store: store, chunk: chunkSize), at: storeAt)
            }
        }
    }

    /// The Exif and XMP APP1 segments `metadata` asks for, or none.
    private func metadataSegments(_ jpeg: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard let metadata else { return [] }
        return try JPEGMetadataSegments.segments(for: metadata, jpeg: jpeg, header: try JPEGSegment.scanHeader(jpeg).segments)
    }

    /// The size of the APP11 segments and a way to build the store once the hash is known.
    private struct Layout {
        let binding: (_ hash: [UInt8]) -> DataHashAssertion
        let segmentsLength: Int
        let writer: ManifestWriter
        let storeSize: Int

        func store(hash: [UInt8]) throws -> [UInt8] {
            let store = try writer.signedStore(hardBinding: binding(hash))
            guard store.count == storeSize else {
                throw C2PAError.signing("manifest store is \(store.count) bytes, \(storeSize) were reserved")
            }
            return store
        }
    }

    /// The exclusion's length is the store's size, which depends on how wide that length
    /// encodes. Sized once with a zero length and `pad` holding the widest difference; the real
    /// length then takes from `pad` what its encoding adds, so the size stays what was measured.
    private func layout(insertionAt insertion: Int) throws -> Layout {
        let reserve = CBOR.headCount(argument: .max) - CBOR.headCount(argument: 0)
        let sized = DataHashAssertion(exclusions: [.init(start: insertion, length: 0)],
                                      hash: [UInt8](repeating: 0, count: 32), padding: reserve)
        let storeSize = try writer.storeSize(hardBinding: sized)
        let length = JPEGXT.segmentsLength(storeSize: storeSize, chunk: chunkSize)
        let padding = reserve - (CBOR.headCount(argument: UInt64(length)) - CBOR.headCount(argument: 0))
        let binding = { (hash: [UInt8]) in
            DataHashAssertion(exclusions: [.init(start: insertion, length: length)], hash: hash, padding: padding)
        }
        return Layout(binding: binding, segmentsLength: length, writer: writer, storeSize: storeSize)
    }

    /// After the last APP0, else right after SOI. Refuses a JPEG that already has a C2PA store:
    /// lensd signs its own fresh captures, it does not update manifests.
    /// Returns nil when `header` ends before the header does and more bytes may follow.
    static func insertionOffset(_ header: UnsafeRawBufferPointer, isWholeFile: Bool) throws -> Int? {
        let (segments, complete) = try JPEGSegment.scanHeader(header)
        guard complete else {
            if isWholeFile { throw C2PAError.malformed("JPEG has no start of scan") }
            return nil
        }
        if try JPEGXT.manifestStore(in: header, segments: segments) != nil {
            throw C2PAError.unsupported("the JPEG already carries a C2PA manifest store")
        }
        return segments.last(where: { $0.marker == JPEGSegment.app0 })?.end ?? 2
    }
}
