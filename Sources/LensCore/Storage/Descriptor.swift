import CLinux
import Glibc

/// An owned file descriptor: closed when it goes out of scope unless `release()` hands it on,
/// so no error path can leak one.
struct Descriptor: ~Copyable {
    let raw: Int32

    init(owning raw: Int32) {
        self.raw = raw
    }

    // close(2) errors are not reported: the descriptor is gone either way, and every file whose
    // contents matter was fsynced before.
    deinit {
        Glibc.close(raw)
    }

    /// Gives up ownership, e.g. to a caller that sends the fd over D-Bus.
    consuming func release() -> Int32 {
        let raw = raw
        discard self
        return raw
    }

    /// Writes all of `bytes`, continuing after short writes.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            done += try Syscalls.retrying("write") { Glibc.write(raw, bytes.baseAddress! + done, bytes.count - done) }
        }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Up to `buffer.count` bytes from the current offset; 0 means end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try Syscalls.retrying("read") { Glibc.read(raw, buffer.baseAddress, buffer.count) }
    }

    /// The whole rest of the file; fails with EFBIG beyond `limit` bytes rather than filling memory.
    func readAll(limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw Syscalls.Failure(call: "read", path: nil, errno: EFBIG) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    func sync() throws {
        _ = try Syscalls.retrying("fsync") { fsync(raw) }
    }

    func status() throws -> FileStatus {
        var status = stat()
        _ = try Syscalls.retrying("fstat") { fstat(raw, &status) }
        return FileStatus(status)
    }

    func rewind() throws {
        _ = try Syscalls.retrying("lseek") { lseek(raw, 0, SEEK_SET) }
    }

    /// A second descriptor of the same open file (F_DUPFD_CLOEXEC).
    func duplicate() throws -> Descriptor {
        let raw = raw
        return Descriptor(owning: try Syscalls.retrying("fcntl(F_DUPFD_CLOEXEC)") { fcntl(raw, F_DUPFD_CLOEXEC, 0) })
    }

    func changeMode(_ mode: mode_t) throws {
        _ = try Syscalls.retrying("fchmod") { fchmod(raw, mode) }
    }

    func addSeals(_ seals: Int32) throws {
        _ = try Syscalls.retrying("fcntl(F_ADD_SEALS)") { lens_add_seals(raw, UInt32(seals)) }
    }
}
