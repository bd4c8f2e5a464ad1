import Foundation

/// Reads a result from the sealed memfd lensd hands out.
enum ResultFile {
    /// All `size` bytes from offset 0, with pread: the fd's offset is shared with every other
    /// holder of the same file, so nothing here depends on or moves it.
    static func read(_ fd: Int32, size: UInt64, name: String) throws(LensClientError) -> Data {
        guard size <= UInt64(Int.max) else { throw .internal("result \(name) is too large: \(size) bytes") }
        var bytes = Data(count: Int(size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = count == 0 ? "it ends early" : String(cString: strerror(errno))
                throw .internal("cannot read result \(name) at byte \(offset) of \(size): \(reason)")
            }
            offset += count
        }
        return bytes
    }
}
