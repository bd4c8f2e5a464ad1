import FoundationEssentials

/// Reading a whole small file with a size limit, for the cascade and the message catalogs:
/// both are read at start-up from paths an administrator chose, and both are hostile input.
enum FileBytes {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        // attributesOfItem describes a symbolic link itself: what it points to is what is read.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: target) } catch {
            throw Failure(description: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        // Only a regular file has a size to check before reading (a FIFO or /dev/zero has none).
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw Failure(description: "cannot be read (not a regular file)") }
        if let size = attributes[.size] as? Int, size > limit { throw Failure(description: "larger than \(limit) bytes") }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw Failure(description: "cannot be read (\(error))")
        }
        // It may have grown since it was measured.
        guard data.count <= limit else { throw Failure(description: "larger than \(limit) bytes") }
        return Array(data)
    }
}
