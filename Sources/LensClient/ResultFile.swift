import FoundationEssentials
import LensSystem

/// Reads a result from the sealed memfd lensd hands out. Always from offset 0 with an explicit
/// offset: the fd's own offset is shared with every other holder of the same file, so nothing
/// here depends on or moves it.
enum ResultFile {
    /// All `size` bytes, with pread.
    static func read(_ file: borrowing FileDescriptor, size: UInt64, name: String) throws(LensClientError) -> Data {
        guard size <= UInt64(Int.max) else { throw .internal("result \(name) is too large: \(size) bytes") }
        var bytes = Data(count: Int(size))
        let count: Int
        do {
            count = try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
        } catch {
            throw failure("read", name, at: 0, of: size, error)
        }
        guard count == bytes.count else { throw failure("read", name, at: count, of: size, nil) }
        return bytes
    }

    /// All `size` bytes into `destination` at its offset, with sendfile (no copy through this
    /// process); destinations sendfile does not take (O_APPEND, some file systems) get the rest
    /// with pread and write.
    static func copy(_ file: borrowing FileDescriptor, size: UInt64, to destination: borrowing FileDescriptor,
                     name: String) throws(LensClientError) {
        guard size <= UInt64(Int.max) else { throw .internal("result \(name) is too large: \(size) bytes") }
        let end = Int(size)
        var offset = 0
        while offset < end {
            let count: Int
            do {
                count = try file.send(from: &offset, count: min(end - offset, 1 << 30), to: destination)
            } catch where error.errno == .invalidArgument || error.errno == .notImplemented {
                break
            } catch {
                throw failure("copy", name, at: offset, of: size, error)
            }
            guard count > 0 else { throw failure("copy", name, at: offset, of: size, nil) }
        }
        var buffer = [UInt8](repeating: 0, count: offset < end ? 1 << 20 : 0)
        while offset < end {
            let want = min(end - offset, buffer.count)
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[..<want]), at: offset)
                }
            } catch {
                throw failure("read", name, at: offset, of: size, error)
            }
            guard count > 0 else { throw failure("read", name, at: offset, of: size, nil) }
            do {
                try destination.writeAll(buffer[..<count])
            } catch {
                throw failure("write", name, at: offset, of: size, error)
            }
            offset += count
        }
    }

    /// `error` is the failed call's errno; nil means the memfd ended early.
    private static func failure(_ verb: String, _ name: String, at offset: Int, of size: UInt64, _ error: (any Error)?) -> LensClientError {
        .internal("cannot \(verb) result \(name) at byte \(offset) of \(size): \(error.map { "\($0)" } ?? "it ends early")")
    }
}
