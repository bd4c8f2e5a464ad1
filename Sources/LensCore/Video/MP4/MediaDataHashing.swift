import LensCrypto

/// Feeds one root box into a running c2pa.hash.bmff.v3 hash (u64be(offset) ‖ the whole box, as
/// C2PA's BMFFHash defines it), read from the file in pieces: how recovery re-hashes the mdats a
/// crashed recorder had hashed in memory.
enum MediaDataHashing {
    private static let chunkSize = 1 << 20

    static func add(_ box: RootBox, from file: borrowing Descriptor, to hasher: Hasher) throws {
        hasher.update(UInt64(box.offset).bigEndianBytes)
        var offset = box.offset
        while offset < box.end {
            let count = min(chunkSize, box.end - offset)
            hasher.update(try MP4Error.io("read '\(box.type)' box") { try file.read(count: count, at: offset) })
            offset += count
        }
    }
}
