/// Bounds-checked big-endian reads from boxes already in memory: every overrun, short or
/// oversized box is an `MP4Error.malformed`, never a trap.
struct BoxReader {
    private let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        position = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    var remaining: Int { end - position }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= remaining else { throw MP4Error(.malformed, "box ends early") }
        position += count
    }

    mutating func u8() throws -> UInt8 {
        try skip(1)
        return bytes[position - 1]
    }

    mutating func u16() throws -> UInt16 { UInt16(try unsigned(2)) }
    mutating func u32() throws -> UInt32 { UInt32(try unsigned(4)) }
    mutating func u64() throws -> UInt64 { try unsigned(8) }

    mutating func fourCC() throws -> String {
        try skip(4)
        return String(decoding: bytes[(position - 4)..<position], as: UTF8.self)
    }

    private mutating func unsigned(_ count: Int) throws -> UInt64 {
        try skip(count)
        return bytes[(position - count)..<position].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The child boxes between here and `end` (a box's payload); each must fit, with a 32-bit size ≥ 8.
    mutating func children() throws -> [ChildBox] {
        var boxes: [ChildBox] = []
        while remaining > 0 {
            let start = position
            let size = Int(try u32())
            let type = try fourCC()
            guard size >= 8, size <= end - start else { throw MP4Error(.malformed, "box '\(type)' has size \(size)") }
            boxes.append(ChildBox(type: type, range: start..<(start + size)))
            position = start + size
        }
        return boxes
    }
}

/// A box found inside another one: where its bytes are in the parent's buffer.
struct ChildBox {
    let type: String
    let range: Range<Int>
    var payload: Range<Int> { (range.lowerBound + 8)..<range.upperBound }
}

extension Array where Element == ChildBox {
    /// The first child of `type`; a missing one makes the parent malformed.
    func first(_ type: String) throws -> ChildBox {
        guard let box = first(where: { $0.type == type }) else { throw MP4Error(.malformed, "no '\(type)' box") }
        return box
    }
}

extension BoxReader {
    /// A reader over `box`'s payload, past a FullBox header; returns the version and flags too.
    static func fullBox(_ bytes: [UInt8], _ box: ChildBox) throws -> (reader: BoxReader, version: UInt8, flags: UInt32) {
        var reader = BoxReader(bytes, range: box.payload)
        let word = try reader.u32()
        return (reader, UInt8(word >> 24), word & 0xFF_FFFF)
    }

    /// The children of `box`, a plain container.
    static func children(_ bytes: [UInt8], of box: ChildBox) throws -> [ChildBox] {
        var reader = BoxReader(bytes, range: box.payload)
        return try reader.children()
    }
}
