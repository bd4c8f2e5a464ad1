import Foundation

/// Reading a whole small file with a size limit, for the cascade and the message catalogs:
/// both are read at start-up from paths an administrator chose, and both are hostile input.
enum FileBytes {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure(description: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        defer { try? handle.close() }
        do {
            // One byte past the limit tells an oversized file from one exactly at it.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw Failure(description: "larger than \(limit) bytes") }
            return Array(data)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "cannot be read (\(error.localizedDescription))")
        }
    }
}
