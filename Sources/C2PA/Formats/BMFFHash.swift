#if canImport(Glibc)
import Glibc
#endif
import LensCrypto

/// The `c2pa.hash.bmff.v3` hash of an MP4: for every root box in file order that the exclusions
/// leave in, u64be(box offset) ‖ the box's bytes minus any excluded subsets (spec 18.6.2, as
/// c2pa-rs computes it). Boxes excluded whole contribute nothing, not even their offset. The
/// plain v1 `c2pa.hash.bmff` hashed the boxes without their offsets.
public enum BMFFHash {
    /// The C2PA UUID box's extended type, D8FEC3D6-1B0E-483C-9297-5828877EC481.
    public static let c2paUUID: [UInt8] = [
        0xd8, 0xfe, 0xc3, 0xd6, 0x1b, 0x0e, 0x48, 0x3c, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7e, 0xc4, 0x81,
    ]

    /// c2pa.hash.bmff.v3 with the standard exclusions: SHA-256 over u64be(offset) ‖ whole box for every
    /// root box in file order that is not ftyp, free, skip, mfra or a C2PA uuid box.
    public static func hash(fileAt path: String) throws -> [UInt8] {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        return try digest(of: file, boxes: try BMFFScanner.rootBoxes(of: file),
                          exclusions: BMFFHashAssertion.standardExclusions, algorithm: .sha256)
    }

    /// The hash of `file`, whose root boxes are `boxes`, under `exclusions`; `offsets: false` for v1.
    static func digest(of file: borrowing POSIXFile, boxes: [BMFFBox], exclusions: [BMFFHashAssertion.Exclusion],
                       algorithm: DigestAlgorithm, offsets: Bool = true) throws -> [UInt8] {
        let hasher = Hasher(algorithm)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        for box in boxes {
            guard let excluded = try excludedRanges(of: box, exclusions: exclusions, read: { try file.read(count: $1, at: $0) })
            else { continue }
            if offsets { hasher.update(offsetPrefix(box.offset)) }
            var position = box.offset
            for range in excluded + [box.end..<box.end] {
                while position < range.lowerBound {
                    let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, range.lowerBound - position)]),
                                          at: position)
                    guard n > 0 else { throw C2PAError.malformed("\(file.path) ends inside box \(box.type) at \(position)") }
                    hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                    position += n
                }
                position = max(position, range.upperBound)
            }
        }
        return hasher.finalize()
    }

    static func offsetPrefix(_ offset: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt64(offset))
        return bytes
    }

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
