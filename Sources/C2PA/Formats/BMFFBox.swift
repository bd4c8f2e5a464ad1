/// One ISO-BMFF box header as found in a file: where the box sits and what it is.
struct BMFFBox: Equatable, Sendable {
    /// The four-character type, e.g. "moov".
    var type: String
    /// Offset of the box's first byte (its size field).
    var offset: Int
    /// The whole box, header included.
    var size: Int
    /// 8, 16 with a 64-bit size, plus 16 for a `uuid` box's extended type.
    var headerSize: Int
    /// A `uuid` box's 16-byte extended type.
    var extendedType: [UInt8]?

    var end: Int { offset + size }
    var range: Range<Int> { offset..<end }
    var payload: Range<Int> { (offset + headerSize)..<end }

    var isC2PA: Bool { type == "uuid" && extendedType == ContentProvenanceBox.uuid }
}

/// Reads box headers from untrusted bytes: every size is checked against its container, so a
/// hostile file throws `C2PAError.malformed` and never traps.
enum BMFFScanner {
    /// The boxes that tile `range` of a source read through `read(offset, count)`. A size of 0
    /// means "to the end of the container".
    static func boxes(in range: Range<Int>, read: (_ offset: Int, _ count: Int) throws -> [UInt8]) throws -> [BMFFBox] {
        var boxes: [BMFFBox] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            let box = try header(at: offset, end: range.upperBound, read: read)
            boxes.append(box)
            offset = box.end
        }
        return boxes
    }

    /// The root boxes of a whole file.
    static func rootBoxes(of file: borrowing POSIXFile) throws -> [BMFFBox] {
        try boxes(in: 0..<(try file.size)) { try file.read(count: $1, at: $0) }
    }

    /// The child boxes of `payload`, a container's bytes held in memory at file offset `base`.
    static func children(of payload: ArraySlice<UInt8>, at base: Int) throws -> [BMFFBox] {
        try boxes(in: base..<(base + payload.count)) { offset, count in
            let start = payload.startIndex + (offset - base)
            guard count <= payload.endIndex - start else {
                throw C2PAError.malformed("BMFF: box header at \(offset) runs past its container")
            }
            return Array(payload[start..<(start + count)])
        }
    }

    /// The header of the box at `offset` in a container that ends at `end`.
    static func header(at offset: Int, end: Int, read: (Int, Int) throws -> [UInt8]) throws -> BMFFBox {
        let available = end - offset
        guard available >= 8 else { throw C2PAError.malformed("BMFF: \(available) stray bytes at \(offset)") }
        var reader = ByteReader(try read(offset, 8))
        let size32 = try reader.readUInt32()
        let type = JUMBFParser.fourCC(try reader.readBytes(4))
        var headerSize = 8
        let size: Int
        switch size32 {
        case 0:
            size = available
        case 1:
            guard available >= 16 else { throw C2PAError.malformed("BMFF: box \(type) at \(offset) lacks its 64-bit size") }
            var large = ByteReader(try read(offset + 8, 8))
            let size64 = try large.readUInt64()
            guard size64 >= 16, size64 <= UInt64(available) else {
                throw C2PAError.malformed("BMFF: box \(type) at \(offset) has size \(size64), \(available) bytes remain")
            }
            headerSize = 16
            size = Int(size64)
        default:
            guard size32 >= 8, Int(size32) <= available else {
                throw C2PAError.malformed("BMFF: box \(type) at \(offset) has size \(size32), \(available) bytes remain")
            }
            size = Int(size32)
        }
        var extendedType: [UInt8]?
        if type == "uuid" {
            guard size - headerSize >= 16 else { throw C2PAError.malformed("BMFF: uuid box at \(offset) has no extended type") }
            extendedType = try read(offset + headerSize, 16)
            headerSize += 16
        }
        return BMFFBox(type: type, offset: offset, size: size, headerSize: headerSize, extendedType: extendedType)
    }
}
