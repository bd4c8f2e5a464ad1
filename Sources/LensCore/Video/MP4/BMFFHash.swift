import LensCrypto

/// The c2pa.hash.bmff.v3 data hash with the standard exclusions (ftyp, free, skip, mfra and the
/// C2PA uuid box): SHA-256 over u64be(offset) ‖ whole box, for every other root box in file order.
enum BMFFHash {
    /// The ContentProvenanceBox extended type, bytes 8..<24 of the C2PA uuid box.
    static let c2paUUID: [UInt8] = [0xD8, 0xFE, 0xC3, 0xD6, 0x1B, 0x0E, 0x48, 0x3C,
                                    0x92, 0x97, 0x58, 0x28, 0x87, 0x7E, 0xC4, 0x81]
    private static let excludedTypes: Set<String> = ["ftyp", "free", "skip", "mfra"]
    private static let chunkSize = 1 << 20

    /// Feeds u64be(offset) and the box read from the file, in 1 MiB pieces, into `hasher`.
    static func add(_ box: RootBox, from file: borrowing Descriptor, to hasher: Hasher) throws {
        hasher.update(UInt64(box.offset).bigEndianBytes)
        var offset = box.offset
        while offset < box.end {
            let count = min(chunkSize, box.end - offset)
            hasher.update(try MP4Error.io("read '\(box.type)' box") { try file.read(count: count, at: offset) })
            offset += count
        }
    }

    /// The hash of a whole file whose root boxes are `boxes`.
    static func ofFile(_ file: borrowing Descriptor, boxes: [RootBox]) throws -> [UInt8] {
        let hasher = Hasher()
        for box in boxes where try !isExcluded(box, in: file) {
            try add(box, from: file, to: hasher)
        }
        return hasher.finalize()
    }

    static func isExcluded(_ box: RootBox, in file: borrowing Descriptor) throws -> Bool {
        if excludedTypes.contains(box.type) { return true }
        guard box.type == "uuid", box.size >= 24 else { return false }
        return try MP4Error.io("read uuid box") { try file.read(count: 16, at: box.offset + 8) } == c2paUUID
    }
}
