import Foundation

/// Reads a result from the sealed memfd lensd hands out. Always from offset 0 with an explicit
/// offset: the fd's own offset is shared with every other holder of the same file, so nothing
/// here depends on or moves it.
enum ResultFile {
    /// All `size` bytes, with pread.
    static func read(_ fd: Int32, size: UInt64, name: String) throws(LensClientError) -> Data {
        guard size <= UInt64(Int.max) else { throw .internal("result \(name) is too large: \(size) bytes") }
        var bytes = Data(count: Int(size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw failure("read", name, at: offset, of: size, count) }
            offset += count
        }
        return bytes
    }

    /// All `size` bytes into `destination` at its offset, with sendfile (no copy through this
    /// process); destinations sendfile does not take (O_APPEND, some file systems) get the rest
    /// with pread and write.
    static func copy(_ fd: Int32, size: UInt64, to destination: Int32, name: String) throws(LensClientError) {
        guard size <= UInt64(off_t.max) else { throw .internal("result \(name) is too large: \(size) bytes") }
        let end = off_t(size)
        var offset: off_t = 0
        while offset < end {
            let count = sendfile(destination, fd, &offset, Int(min(end - offset, 1 << 30)))
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EINVAL || errno == ENOSYS) { break }
            guard count > 0 else { throw failure("copy", name, at: Int(offset), of: size, count) }
        }
        var buffer = [UInt8](repeating: 0, count: offset < end ? 1 << 20 : 0)
        while offset < end {
            let want = Int(min(end - offset, off_t(buffer.count)))
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, want, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw failure("read", name, at: Int(offset), of: size, count) }
            guard buffer.withUnsafeBytes({ writeAll(destination, UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else {
                throw failure("write", name, at: Int(offset), of: size, -1)
            }
            offset += off_t(count)
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// `count` is what the failing call returned: 0 means the memfd ended early, else errno says why.
    private static func failure(_ verb: String, _ name: String, at offset: Int, of size: UInt64, _ count: Int) -> LensClientError {
        let reason = count == 0 ? "it ends early" : String(cString: strerror(errno))
        return .internal("cannot \(verb) result \(name) at byte \(offset) of \(size): \(reason)")
    }
}
