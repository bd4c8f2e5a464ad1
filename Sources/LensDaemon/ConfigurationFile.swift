import FoundationEssentials
import Glibc

/// Reading the configuration file, with the reason a person can act on when it cannot be read.
enum ConfigurationFile {
    static func read(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno)  // EISDIR for a directory, EIO for a failing disk
            }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func failure(_ path: String, _ code: Int32) -> ConfigurationError {
        ConfigurationError("cannot read \(path): \(String(cString: strerror(code)))")
    }
}
