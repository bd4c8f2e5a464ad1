import LensSystem
/// A top-level box of a file, located by its header only.
struct RootBox: Equatable {
    let type: String
    let offset: Int
    let size: Int
    let headerSize: Int

    var end: Int { offset + size }
    var payloadSize: Int { size - headerSize }

    /// The root boxes from the start of the file up to the first one that is not complete:
    /// a size that is 0 ("to the end"), smaller than its header, or runs past `fileSize` ends the
    /// list. `end` is where the complete boxes stop; any bytes after it are a torn tail.
    static func scan(_ file: borrowing FileDescriptor, fileSize: Int) throws -> (boxes: [RootBox], end: Int) {
        var boxes: [RootBox] = []
        var offset = 0
        while let box = try header(file, at: offset, fileSize: fileSize) {
            boxes.append(box)
            offset = box.end
        }
        return (boxes, offset)
    }

    private static func header(_ file: borrowing FileDescriptor, at offset: Int, fileSize: Int) throws -> RootBox? {
        guard fileSize - offset >= 8 else { return nil }
        var reader = BoxReader(try file.read(count: min(16, fileSize - offset), at: offset))
        var size = UInt64(try reader.u32())
        let type = try reader.fourCC()
        var headerSize = 8
        if size == 1 {
            guard reader.remaining >= 8 else { return nil }
            size = try reader.u64()
            headerSize = 16
        }
        guard size >= UInt64(headerSize), size <= UInt64(fileSize - offset) else { return nil }
        return RootBox(type: type, offset: offset, size: Int(size), headerSize: headerSize)
    }

    /// The whole box in memory, for the small ones (moov, moof); `limit` guards against a size
    /// field that would make recovery allocate gigabytes.
    func read(_ file: borrowing FileDescriptor, limit: Int) throws -> [UInt8] {
        guard size <= limit else { throw MP4Error(.malformed, "'\(type)' at \(offset) has \(size) bytes, more than \(limit)") }
        return try MP4Error.io("read '\(type)' box") { try file.read(count: size, at: offset) }
    }
}
