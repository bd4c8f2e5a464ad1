import FoundationEssentials
import Glibc
import LensSystem

/// Reading the configuration file, with the reason a person can act on when it cannot be read.
enum ConfigurationFile {
    static func read(_ path: String) throws -> String {
        do {
            let file = try FileDescriptor.open(path, O_RDONLY)
            // EISDIR for a directory, EIO for a failing disk.
            return String(decoding: try file.readAll(), as: UTF8.self)
        } catch {
            throw ConfigurationError("cannot read \(path): \(error.errno)")
        }
    }
}
