/// The C2PA `uuid` box of an MP4 (spec A.5 ContentProvenanceBox): FullBox version 0, the purpose
/// "manifest", a u64 offset of the first merkle box (0: none), then the manifest store, then
/// optional padding that lets a store of any size fill a space reserved in advance.
public enum ContentProvenanceBox {
    /// The box's extended type, D8FEC3D6-1B0E-483C-9297-5828877EC481.
    public static let uuid: [UInt8] = [
        0xd8, 0xfe, 0xc3, 0xd6, 0x1b, 0x0e, 0x48, 0x3c, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7e, 0xc4, 0x81,
    ]
    static let purpose = "manifest"
    /// size, type, extended type, version+flags, purpose with its NUL, merkle offset.
    static let overhead = 8 + 16 + 4 + purpose.utf8.count + 1 + 8

    /// The box holding `store`, zero-padded to `size` bytes (at least `overhead + store.count`).
    static func encode(store: [UInt8], size: Int) throws -> [UInt8] {
        precondition(size >= overhead + store.count)
        var box = try header(size: size)
        box.reserveCapacity(size)
        box.appendBigEndian(UInt32(0))
        box.append(ascii: purpose)
        box.append(0)
        box.appendBigEndian(UInt64(0))
        box += store
        box += [UInt8](repeating: 0, count: size - box.count)
        return box
    }

    /// The box's header: its size, type and extended type.
    static func header(size: Int) throws -> [UInt8] {
        guard size <= Int(UInt32.max) else { throw C2PAError.unsupported("a C2PA box of \(size) bytes needs a 64-bit box size") }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(size))
        header.append(ascii: "uuid")
        return header + uuid
    }

    /// The manifest store in a C2PA box's payload (the bytes after the extended type), or nil
    /// when the box has another purpose (e.g. "merkle"). Padding after the store is ignored.
    static func manifestStore(payload: [UInt8]) throws -> [UInt8]? {
        var reader = ByteReader(payload)
        _ = try reader.readUInt32()  // version and flags
        let rest = payload[reader.position...]
        guard let nul = rest.firstIndex(of: 0) else { throw C2PAError.malformed("C2PA box purpose is not terminated") }
        let purpose = String(decoding: try reader.readBytes(nul - reader.position), as: UTF8.self)
        _ = try reader.readUInt8()
        guard ["manifest", "original", "update"].contains(purpose) else { return nil }
        _ = try reader.readUInt64()  // first merkle box offset: lensd verifies flat hashes only
        var sizeReader = ByteReader(reader.readRest())
        let storeStart = sizeReader.position
        let storeSize = try sizeReader.readUInt32()
        guard storeSize >= 8, Int(storeSize) <= payload.count - storeStart else {
            throw C2PAError.malformed("the manifest store (\(storeSize) bytes) does not fit its C2PA box")
        }
        return Array(payload[storeStart..<(storeStart + Int(storeSize))])
    }
}
