#if canImport(Glibc)
import Glibc
#endif
import LensCrypto

/// Embeds a signed manifest store in an MP4 as the C2PA `uuid` box right after `ftyp`, bound by
/// `c2pa.hash.bmff.v3` with the standard exclusions. The store's size does not depend on the hash,
/// so the box is sized first, the file is hashed once in its final layout, and the store is signed
/// exactly once.
public struct MP4Signer: Sendable {
    public let writer: ManifestWriter

    public init(writer: ManifestWriter) {
        self.writer = writer
    }

    /// Signs a finished plain MP4 in place: `reserve` is the byte range of a top-level `free` box (header
    /// included) directly after `ftyp`; it is overwritten by the C2PA `uuid` box (FullBox v0, purpose
    /// "manifest", merkle offset 0, the store, zero padding to exactly reserve.count bytes). `hash` is the
    /// file's c2pa.hash.bmff.v3 as it stands, which the caller's `BMFFHasher` computed while writing it;
    /// debug builds hash the file again and throw `C2PAError.signing` when the two differ. Writes nothing
    /// outside the reserve; fsyncs. Throws C2PAError.doesNotFit(needed:available:) when the store does
    /// not fit, without writing anything.
    public func signInPlace(path: String, reserve: Range<Int>, hash: [UInt8]) throws {
        let file = try POSIXFile(path: path, flags: O_RDWR)
        let boxes = try BMFFScanner.rootBoxes(of: file)
        guard boxes.count >= 2, boxes[0].type == "ftyp", boxes[1].type == "free", boxes[1].range == reserve else {
            throw C2PAError.unsupported("\(path): \(reserve) is not the free box directly after ftyp")
        }
        #if DEBUG
        // A release build trusts the caller rather than read the whole recording again.
        let onDisk = try BMFFHasher.digest(of: file, boxes: boxes, exclusions: BMFFHashAssertion.standardExclusions, algorithm: .sha256)
        guard onDisk == hash else {
            throw C2PAError.signing("\(path): the hash handed over (\(hash.hexString)) is not the file's (\(onDisk.hexString))")
        }
        #endif
        try file.write(try signedBox(hash: hash, size: reserve.count), at: reserve.lowerBound)
        try file.sync()
    }

    /// Signs any MP4 into outputPath (replaced atomically, see `AtomicOutput`; the input untouched): into a `free` box directly after ftyp
    /// when one is there and large enough, else by inserting the uuid box after ftyp and shifting every
    /// stco/co64 entry (moov/trak/mdia/minf/stbl, all traks); refuses (unsupported) fragmented files
    /// (moof/sidx) and files that already carry a C2PA uuid box. Hashes in one pass like JPEGSigner.
    public func sign(inputPath: String, outputPath: String) throws {
        let input = try POSIXFile(path: inputPath, flags: O_RDONLY)
        let boxes = try BMFFScanner.rootBoxes(of: input)
        try Self.checkSignable(boxes, path: inputPath)
        let ftyp = boxes[0]
        let needed = try boxSize()
        let reusable = boxes.count > 1 && boxes[1].type == "free" && boxes[1].size >= needed ? boxes[1] : nil
        if reusable == nil, let meta = boxes.first(where: { $0.type == "meta" }) {
            throw C2PAError.unsupported("\(inputPath): a root meta box at \(meta.offset) may hold item offsets lensd does not move")
        }
        let gap = reusable?.size ?? needed
        let shift = reusable == nil ? needed : 0

        let head = try input.read(count: ftyp.size, at: 0)
        try AtomicOutput.write(to: outputPath) { output in
            try output.seek(to: ftyp.end + gap)
            let hasher = BMFFHasher()
            try hasher.add(box: head, at: 0)
            try hasher.begin(head: try ContentProvenanceBox.header(size: gap), at: ftyp.end)
            let copier = try HashingCopier(output: output)
            for box in boxes.dropFirst(reusable == nil ? 1 : 2) {
                if box.type == "moov" && shift != 0 {
                    var moov = try input.read(count: box.size, at: box.offset)
                    try MP4ChunkOffsets.shift(moov: &moov, box: box, by: shift)
                    try hasher.add(box: moov, at: box.offset + shift)
                    try copier.write(moov, hashingInto: nil)
                } else {
                    var moved = box
                    moved.offset += shift
                    try hasher.begin(moved) { try input.read(count: $1, at: $0 - shift) }
                    try copier.copy(from: input, range: box.range, hashingInto: hasher)
                }
            }
            try copier.finish()
            let signed = try signedBox(hash: hasher.finalize(), size: gap)
            try output.write(head + signed, at: 0)
        }
    }

    /// A plain, finished, unsigned MP4: ftyp first, a moov, no fragments, no manifest yet.
    private static func checkSignable(_ boxes: [BMFFBox], path: String) throws {
        guard let ftyp = boxes.first, ftyp.type == "ftyp" else { throw C2PAError.unsupported("\(path) does not start with ftyp") }
        // Only ftyp is copied through memory; real ones hold a handful of brands.
        guard ftyp.size <= 4096 else { throw C2PAError.unsupported("\(path): ftyp of \(ftyp.size) bytes") }
        if let fragment = boxes.first(where: { $0.type == "moof" || $0.type == "sidx" }) {
            throw C2PAError.unsupported("\(path) is fragmented (\(fragment.type) at \(fragment.offset))")
        }
        guard boxes.contains(where: { $0.type == "moov" }) else { throw C2PAError.unsupported("\(path) has no moov") }
        if boxes.contains(where: \.isC2PA) {
            throw C2PAError.unsupported("\(path) already carries a C2PA manifest store")
        }
    }

    /// The size of the uuid box without padding; it does not depend on the hash's value.
    private func boxSize() throws -> Int {
        let placeholder = BMFFHashAssertion(hash: [UInt8](repeating: 0, count: DigestAlgorithm.sha256.outputSize))
        return ContentProvenanceBox.overhead + (try writer.storeSize(hardBinding: placeholder))
    }

    /// The uuid box with the store signed over `hash`, padded to `size` bytes.
    private func signedBox(hash: [UInt8], size: Int) throws -> [UInt8] {
        guard hash.count == DigestAlgorithm.sha256.outputSize else {
            throw C2PAError.signing("a SHA-256 hash has 32 bytes, not \(hash.count)")
        }
        let needed = try boxSize()
        guard needed <= size else { throw C2PAError.doesNotFit(needed: needed, available: size) }
        let store = try writer.signedStore(hardBinding: BMFFHashAssertion(hash: hash))
        guard store.count + ContentProvenanceBox.overhead == needed else {
            throw C2PAError.signing("manifest store is \(store.count) bytes, \(needed - ContentProvenanceBox.overhead) were reserved")
        }
        return try ContentProvenanceBox.encode(store: store, size: size)
    }
}
