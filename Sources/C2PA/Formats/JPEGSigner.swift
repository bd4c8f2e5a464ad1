#if canImport(Glibc)
import Glibc
#endif
import LensCrypto

/// Embeds a signed manifest store into a JPEG as APP11 segments right after APP0 (or SOI).
/// The hard binding excludes exactly the inserted bytes, so the data hash is the hash of the
/// original JPEG: it is computed in the single pass that copies the bytes.
public struct JPEGSigner: Sendable {
    public let writer: ManifestWriter
    /// JUMBF bytes per APP11 segment.
    public let chunkSize: Int

    public init(writer: ManifestWriter, chunkSize: Int = 65_000) throws {
        guard (1...JPEGXT.maximumChunk).contains(chunkSize) else {
            throw C2PAError.unsupported("APP11 chunk size must be 1...\(JPEGXT.maximumChunk)")
        }
        self.writer = writer
        self.chunkSize = chunkSize
    }

    /// Signs a JPEG held in memory, hashing each piece as it is copied (one pass over the bytes).
    public func sign(_ jpeg: [UInt8]) throws -> [UInt8] {
        try jpeg.withUnsafeBytes { raw in
            guard let insertion = try Self.insertionOffset(raw, isWholeFile: true) else {
                throw C2PAError.malformed("JPEG has no start of scan")
            }
            let plan = try layout(insertionAt: insertion)
            let hasher = Hasher(.sha256)
            let gap = insertion + plan.segmentsLength
            // Uninitialized, not zero-filled: every byte is written below, so zeroing would be a
            // third pass over a 12 MP photo.
            var out = [UInt8](unsafeUninitializedCapacity: jpeg.count + plan.segmentsLength) { target, count in
                Self.copy(UnsafeRawBufferPointer(rebasing: raw[..<insertion]), to: target.baseAddress!, hashingInto: hasher)
                Self.copy(UnsafeRawBufferPointer(rebasing: raw[insertion...]), to: target.baseAddress! + gap, hashingInto: hasher)
                count = target.count
            }
            let segments = JPEGXT.segments(store: try plan.store(hash: hasher.finalize()), chunk: chunkSize)
            precondition(segments.count == plan.segmentsLength, "the segments fill exactly the gap left for them")
            out.replaceSubrange(insertion..<gap, with: segments)
            return out
        }
    }

    /// Copies in pieces that stay in cache between the copy and the hash.
    private static func copy(_ source: UnsafeRawBufferPointer, to target: UnsafeMutableRawPointer, hashingInto hasher: Hasher) {
        let piece = 256 << 10
        var offset = 0
        while offset < source.count {
            let slice = UnsafeRawBufferPointer(rebasing: source[offset..<min(source.count, offset + piece)])
            (target + offset).copyMemory(from: slice.baseAddress!, byteCount: slice.count)
            hasher.update(slice)
            offset += slice.count
        }
    }

    /// Signs the JPEG at `inputPath` into `outputPath` (created or truncated) in one pass over a
    /// read-only mapping of the input, atomically (`AtomicOutput`): the header goes out first, a gap of the store's final size
    /// is left, the rest is hashed straight from the mapping while a second thread writes the part
    /// hashed before, and the signed store is written into the gap at the end.
    public func sign(inputPath: String, outputPath: String, bufferSize: Int = 4 << 20) throws {
        let input = try POSIXFile(path: inputPath, flags: O_RDONLY)
        try input.withBytes { raw in
            guard let insertion = try Self.insertionOffset(raw, isWholeFile: true) else {
                throw C2PAError.malformed("JPEG has no start of scan")
            }
            let plan = try layout(insertionAt: insertion)
            try AtomicOutput.write(to: outputPath) { output in
                let hasher = Hasher(.sha256)
                let head = UnsafeRawBufferPointer(rebasing: raw[..<insertion])
                hasher.update(head)
                try output.write(head)
                try output.seek(to: insertion + plan.segmentsLength)
                let writer = try BackgroundWriter(output: output)
                var offset = insertion
                do {
                    while offset < raw.count {
                        let chunk = UnsafeRawBufferPointer(rebasing: raw[offset..<min(raw.count, offset + bufferSize)])
                        hasher.update(chunk)
                        try writer.write(chunk)
                        offset += chunk.count
                    }
                } catch {
                    try? writer.finish()
                    throw error
                }
                try writer.finish()
                let store = try plan.store(hash: hasher.finalize())
                try output.write(JPEGXT.segments(store: store, chunk: chunkSize), at: insertion)
            }
        }
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
