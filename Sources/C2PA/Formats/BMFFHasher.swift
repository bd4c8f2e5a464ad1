#if canImport(Glibc)
import Glibc
#endif
import LensCrypto

/// The `c2pa.hash.bmff.v3` hash of an ISO-BMFF file, fed its root boxes in file order: for every
/// root box the exclusions leave in, u64be(box offset) ‖ the box's bytes minus any excluded
/// subsets (spec 18.6.2, as c2pa-rs computes it). Boxes excluded whole contribute nothing, not
/// even their offset. The plain v1 `c2pa.hash.bmff` hashed the boxes without their offsets.
///
/// The one place that decides what the exclusions leave in: the verifier feeds it the boxes of
/// the file it checks, the signers those of the file they write, and the muxer each box as it
/// writes it (a box's head first, then the rest of its bytes as they come), so that the hash of a
/// recording is ready when it stops. Boxes must tile the file from offset 0; a box that is fed
/// short, or out of place, is an error rather than a wrong hash. `finalize()` may be called once.
public final class BMFFHasher {
    private let exclusions: [BMFFHashAssertion.Exclusion]
    private let digest: Hasher
    private let offsets: Bool
    /// The box being fed, and its bytes that are hashed and have not come yet (file offsets).
    private var box: BMFFBox?
    private var kept: [Range<Int>] = []
    /// Where the next byte `update` takes sits.
    private var position = 0

    /// `offsets: false` for the plain v1 `c2pa.hash.bmff`.
    init(exclusions: [BMFFHashAssertion.Exclusion], algorithm: DigestAlgorithm, offsets: Bool) {
        self.exclusions = exclusions
        digest = Hasher(algorithm)
        self.offsets = offsets
    }

    /// c2pa.hash.bmff.v3 with the standard exclusions (ftyp, free, skip, mfra and C2PA uuid boxes),
    /// SHA-256: what `BMFFHashAssertion(hash:)` states.
    public convenience init() {
        self.init(exclusions: BMFFHashAssertion.standardExclusions, algorithm: .sha256, offsets: true)
    }

    /// Where the next root box starts: the end of the last one begun.
    var end: Int { box?.end ?? 0 }

    /// Feeds a whole root box held in memory, at `offset`.
    public func add(box bytes: [UInt8], at offset: Int) throws {
        try begin(head: bytes, at: offset)
        guard position == end else {
            throw C2PAError.malformed("BMFF hash: \(bytes.count) bytes at \(offset) are not the whole \(box?.type ?? "") box")
        }
    }

    /// Starts the root box at `offset` from its first bytes: its header at least (a `uuid` box's
    /// extended type included), and whatever else of it the exclusions read (none of the standard
    /// ones reads more). Its other bytes follow in `update`; those the exclusions leave out need
    /// not, so a box excluded whole is fed by its header alone. A size of 0 ("to the end of the
    /// file") cannot be streamed.
    public func begin(head: [UInt8], at offset: Int) throws {
        guard head.count >= 4, head[..<4] != [0, 0, 0, 0] else {
            throw C2PAError.unsupported("BMFF hash: the box at \(offset) has no size to stream it by")
        }
        let read = { (start: Int, count: Int) throws -> [UInt8] in
            guard start >= offset, count <= head.count, start - offset <= head.count - count else {
                throw C2PAError.unsupported("BMFF hash: the exclusions read \(count) bytes at \(start), past the \(head.count) given of the box at \(offset)")
            }
            return Array(head[(start - offset)..<(start - offset + count)])
        }
        try begin(try BMFFScanner.header(at: offset, end: Int.max, read: read), read: read)
        try head.withUnsafeBytes { try update($0) }
    }

    /// The next bytes of the box begun last.
    public func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard let box, bytes.count <= box.end - position else {
            throw C2PAError.malformed("BMFF hash: \(bytes.count) bytes at \(position) run past the box they belong to")
        }
        hashKept(bytes, at: position)
        position += bytes.count
    }

    public func update(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try update($0) }
    }

    /// The hash, once every box has been fed up to its last byte that is hashed.
    public func finalize() throws -> [UInt8] {
        try checkComplete()
        return digest.finalize()
    }

    // MARK: Files

    /// c2pa.hash.bmff.v3 with the standard exclusions of the file at `path`.
    public static func hash(fileAt path: String) throws -> [UInt8] {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        return try digest(of: file, boxes: try BMFFScanner.rootBoxes(of: file),
                          exclusions: BMFFHashAssertion.standardExclusions, algorithm: .sha256)
    }

    /// The hash of `file`, whose root boxes are `boxes`, under `exclusions`; `offsets: false` for
    /// v1. Reads only the bytes it hashes (and what the exclusions look at).
    static func digest(of file: borrowing POSIXFile, boxes: [BMFFBox], exclusions: [BMFFHashAssertion.Exclusion],
                       algorithm: DigestAlgorithm, offsets: Bool = true) throws -> [UInt8] {
        let hasher = BMFFHasher(exclusions: exclusions, algorithm: algorithm, offsets: offsets)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        for box in boxes {
            try hasher.begin(box) { try file.read(count: $1, at: $0) }
            for range in hasher.kept {
                var at = range.lowerBound
                while at < range.upperBound {
                    let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, range.upperBound - at)]),
                                          at: at)
                    guard n > 0 else { throw C2PAError.malformed("\(file.path) ends inside box \(box.type) at \(at)") }
                    hasher.hashKept(UnsafeRawBufferPointer(rebasing: buffer[..<n]), at: at)
                    at += n
                }
            }
            hasher.position = box.end
        }
        return try hasher.finalize()
    }

    // MARK: Boxes

    /// Starts `box`, which must begin where the last one ended; `read(offset, count)` reads its
    /// bytes (file offsets) for the exclusions that look inside it.
    func begin(_ box: BMFFBox, read: (_ offset: Int, _ count: Int) throws -> [UInt8]) throws {
        try checkComplete()
        guard box.offset == end else {
            throw C2PAError.malformed("BMFF hash: box \(box.type) at \(box.offset), where the boxes before end at \(end)")
        }
        self.box = box
        position = box.offset
        guard let excluded = try Self.excludedRanges(of: box, exclusions: exclusions, read: read) else {
            kept = []
            return
        }
        if offsets { digest.update(Self.offsetPrefix(box.offset)) }
        kept = []
        var start = box.offset
        for range in excluded + [box.end..<box.end] {
            if start < range.lowerBound { kept.append(start..<range.lowerBound) }
            start = max(start, range.upperBound)
        }
    }

    private func checkComplete() throws {
        if let box, let missing = kept.first {
            throw C2PAError.malformed("BMFF hash: box \(box.type) at \(box.offset) was fed up to \(position), its bytes from \(missing.lowerBound) are hashed")
        }
    }

    /// Hashes what of `bytes`, found at file offset `start`, the kept ranges hold; never skips a kept byte.
    private func hashKept(_ bytes: UnsafeRawBufferPointer, at start: Int) {
        let stop = start + bytes.count
        while let range = kept.first, range.lowerBound < stop {
            precondition(range.lowerBound >= start, "BMFF hash: kept bytes \(range) skipped")
            let upper = min(range.upperBound, stop)
            digest.update(UnsafeRawBufferPointer(rebasing: bytes[(range.lowerBound - start)..<(upper - start)]))
            if upper == range.upperBound { kept.removeFirst() } else { kept[0] = upper..<range.upperBound }
        }
    }

    static func offsetPrefix(_ offset: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt64(offset))
        return bytes
    }

    // MARK: Exclusions

    /// nil when `box` is excluded whole; else the sorted, disjoint byte ranges (file offsets) the
    /// exclusions cut out of it, usually none: subsets of it, or boxes nested in it that an xpath
    /// such as `/moov/trak/mdia/minf/stbl/stco` or `/moof/traf[2]/tfhd` selects (older writers
    /// excluded the chunk offsets that way). Throws `unsupported` for an index on a root box,
    /// and `malformed` when a data match or a nested box reads past its container.
    static func excludedRanges(of box: BMFFBox, exclusions: [BMFFHashAssertion.Exclusion],
                               read: (_ offset: Int, _ count: Int) throws -> [UInt8]) throws -> [Range<Int>]? {
        var cut: [Range<Int>] = []
        for exclusion in exclusions {
            let path = try XPath(exclusion.xpath)
            guard path.steps[0].type == box.type else { continue }
            let selected = try path.steps.dropFirst().reduce([box]) { boxes, step in
                try boxes.flatMap { try step.select(in: children(of: $0, read: read)) }
            }
            for target in selected where try matches(exclusion, target, nested: target != box, read: read) {
                guard let subsets = exclusion.subset else {
                    if target == box { return nil }
                    cut.append(target.range)
                    continue
                }
                for subset in subsets where subset.offset <= target.size {
                    let available = target.size - subset.offset
                    let length = subset.length == 0 ? available : min(subset.length, available)
                    cut.append((target.offset + subset.offset)..<(target.offset + subset.offset + length))
                }
            }
        }
        return merged(cut)
    }

    /// An exclusion's xpath: `/type` or `/type[n]` steps, n counting from 1 among same-type siblings.
    private struct XPath {
        struct Step {
            var type: String
            var index: Int?

            func select(in boxes: [BMFFBox]) -> [BMFFBox] {
                let same = boxes.filter { $0.type == type }
                guard let index else { return same }
                return same.indices.contains(index - 1) ? [same[index - 1]] : []
            }
        }

        var steps: [Step]

        init(_ text: String) throws {
            guard text.hasPrefix("/") else { throw C2PAError.malformed("bmff exclusion xpath \(text) is not absolute") }
            steps = try text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { part in
                guard let open = part.firstIndex(of: "[") else { return Step(type: String(part)) }
                guard part.last == "]", let index = Int(part[part.index(after: open)..<part.index(before: part.endIndex)]), index > 0 else {
                    throw C2PAError.malformed("bmff exclusion xpath step \(part) has no valid index")
                }
                return Step(type: String(part[..<open]), index: index)
            }
            guard steps.allSatisfy({ !$0.type.isEmpty }) else { throw C2PAError.malformed("bmff exclusion xpath \(text) has an empty step") }
            if steps[0].index != nil { throw C2PAError.unsupported("bmff exclusion \(text) indexes a root box") }
        }
    }

    /// Containers whose children follow a FullBox header (meta) or one plus an entry count (stsd, dref).
    private static let childOffsets: [String: Int] = ["meta": 4, "stsd": 8, "dref": 8]

    private static func children(of box: BMFFBox, read: (Int, Int) throws -> [UInt8]) throws -> [BMFFBox] {
        let start = box.payload.lowerBound + (childOffsets[box.type] ?? 0)
        guard start <= box.end else { throw C2PAError.malformed("BMFF: \(box.type) at \(box.offset) is too short for its children") }
        return try BMFFScanner.boxes(in: start..<box.end, read: read)
    }

    private static func matches(_ exclusion: BMFFHashAssertion.Exclusion, _ box: BMFFBox, nested: Bool,
                                read: (Int, Int) throws -> [UInt8]) throws -> Bool {
        if let length = exclusion.length, length != box.size { return false }
        if exclusion.version != nil || exclusion.flags != nil, let (version, flags) = try fullBoxHeader(box, nested: nested, read: read) {
            if let wanted = exclusion.version, wanted != Int(version) { return false }
            if let bytes = exclusion.flags {
                let wanted = bytes.count >= 3 ? UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) : 0
                if exclusion.exact ?? true ? wanted != flags : wanted | flags != wanted { return false }
            }
        }
        for match in exclusion.data ?? [] {
            let (start, overflow) = box.offset.addingReportingOverflow(match.offset)
            guard !overflow, try read(start, match.value.count) == match.value else { return false }
        }
        return true
    }

    /// Root boxes that are FullBoxes in ISO 14496-12 (c2pa-rs reads version and flags of these).
    private static let rootFullBoxTypes: Set<String> = ["meta", "pdin", "sidx", "ssix", "prft"]

    /// A nested box an exclusion names a version or flags for is read as a FullBox (tfhd, trun, …).
    private static func fullBoxHeader(_ box: BMFFBox, nested: Bool, read: (Int, Int) throws -> [UInt8]) throws -> (UInt8, UInt32)? {
        guard nested || box.isC2PA || rootFullBoxTypes.contains(box.type) else { return nil }
        guard box.payload.count >= 4 else { throw C2PAError.malformed("BMFF: FullBox \(box.type) at \(box.offset) is empty") }
        let bytes = try read(box.payload.lowerBound, 4)
        return (bytes[0], UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3]))
    }

    private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = out.last, range.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }
}
