/// Moves every chunk offset of a `moov` (stco and co64 of each moov/trak/mdia/minf/stbl) by the
/// same amount, for when bytes are inserted before the media data.
enum MP4ChunkOffsets {
    private static let pathToSampleTable = ["trak", "mdia", "minf", "stbl"]

    /// `moov` holds the bytes of `box`, the root moov box.
    static func shift(moov: inout [UInt8], box: BMFFBox, by delta: Int) throws {
        precondition(moov.count == box.size)
        let offset = box.offset
        for table in try sampleTables(in: moov, box: box) {
            for box in try BMFFScanner.children(of: moov[(table.payload.lowerBound - offset)..<(table.end - offset)],
                                                at: table.payload.lowerBound)
            where box.type == "stco" || box.type == "co64" {
                try shiftEntries(of: box, in: &moov, base: offset, by: delta)
            }
        }
    }

    /// Every stbl box under moov/trak/mdia/minf.
    private static func sampleTables(in moov: [UInt8], box: BMFFBox) throws -> [BMFFBox] {
        let offset = box.offset
        var level = [box]
        for type in pathToSampleTable {
            level = try level.flatMap { parent in
                try BMFFScanner.children(of: moov[(parent.payload.lowerBound - offset)..<(parent.end - offset)],
                                         at: parent.payload.lowerBound).filter { $0.type == type }
            }
        }
        return level
    }

    private static func shiftEntries(of box: BMFFBox, in moov: inout [UInt8], base: Int, by delta: Int) throws {
        let width = box.type == "co64" ? 8 : 4
        let start = box.payload.lowerBound - base
        var reader = ByteReader(moov[start..<(box.end - base)])
        _ = try reader.readUInt32()  // version and flags
        let count = Int(try reader.readUInt32())
        guard count <= reader.remaining / width else {
            throw C2PAError.malformed("\(box.type) at \(box.offset) lists \(count) entries that do not fit")
        }
        for index in 0..<count {
            let at = reader.position + index * width
            let value = moov[at..<(at + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let (moved, overflow) = value.addingReportingOverflow(UInt64(delta))
            guard !overflow, width == 8 || moved <= UInt64(UInt32.max) else {
                throw C2PAError.unsupported("chunk offset \(value) in \(box.type) overflows when moved by \(delta)")
            }
            for byte in 0..<width { moov[at + byte] = UInt8(truncatingIfNeeded: moved >> (8 * (width - 1 - byte))) }
        }
    }
}
