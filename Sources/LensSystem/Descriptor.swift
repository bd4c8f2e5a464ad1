import CLinux
import Glibc

/// An owned file descriptor for the storage, identity and MP4 code: LensSystem's
/// `FileDescriptor` (which makes the calls, retrying EINTR) with failures as `Syscalls.Failure`,
/// the error these callers match on. Closed when it goes out of scope unless `release()` hands it on.
public struct Descriptor: ~Copyable, Sendable {
    public let file: FileDescriptor

    public init(owning raw: Int32) {
        file = FileDescriptor(adopting: raw)
    }

    public init(_ file: consuming FileDescriptor) {
        self.file = file
    }

    public var raw: Int32 { file.rawValue }

    /// Gives up ownership, e.g. to a caller that sends it over D-Bus.
    public consuming func release() -> FileDescriptor {
        file
    }

    /// Runs `body` on the descriptor; its errno becomes a `Syscalls.Failure` of `call`.
    private func calling<Result: ~Copyable>(_ call: String, _ body: (borrowing FileDescriptor) throws(Errno) -> Result) throws -> Result {
        do {
            return try body(file)
        } catch {
            throw Syscalls.Failure(call: call, path: nil, errno: error.rawValue)
        }
    }

    /// Writes all of `bytes`, continuing after short writes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        try calling("write") { (file) throws(Errno) in try file.writeAll(bytes) }
    }

    public func write(_ bytes: [UInt8]) throws {
        try calling("write") { (file) throws(Errno) in try file.writeAll(bytes) }
    }

    /// Positioned, for the muxer: boxes are written and patched at known offsets, never through
    /// the shared file offset. All of `bytes` at `offset`, continuing after short writes.
    public func write(_ bytes: [UInt8], at offset: Int) throws {
        try calling("pwrite") { (file) throws(Errno) in try file.writeAll(bytes, at: offset) }
    }

    /// Up to `buffer.count` bytes from the current offset; 0 means end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try calling("read") { (file) throws(Errno) in try file.read(into: buffer) }
    }

    /// Up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        try calling("pread") { (file) throws(Errno) in try file.read(into: buffer, at: offset) }
    }

    /// Exactly `count` bytes at `offset`; a file that ends before them fails with EIO.
    public func read(count: Int, at offset: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBytes { try self.read(into: $0, at: offset) }
        guard read == count else { throw Syscalls.Failure(call: "pread", path: nil, errno: EIO) }
        return bytes
    }

    /// The whole rest of the file; fails with EFBIG beyond `limit` bytes rather than filling memory.
    public func readAll(limit: Int) throws -> [UInt8] {
        guard let bytes = try calling("read", { (file) throws(Errno) in try file.readAll(limit: limit) }) else {
            throw Syscalls.Failure(call: "read", path: nil, errno: EFBIG)
        }
        return bytes
    }

    public func sync() throws {
        try calling("fsync") { (file) throws(Errno) in try file.sync() }
    }

    public func truncate(to size: Int) throws {
        try calling("ftruncate") { (file) throws(Errno) in try file.truncate(to: size) }
    }

    public func status() throws -> FileStatus {
        FileStatus(try calling("fstat") { (file) throws(Errno) in try file.status() })
    }

    public func rewind() throws {
        try calling("lseek") { (file) throws(Errno) in _ = try file.seek(to: 0) }
    }

    /// A second descriptor of the same open file (F_DUPFD_CLOEXEC).
    public func duplicate() throws -> Descriptor {
        Descriptor(try calling("fcntl(F_DUPFD_CLOEXEC)") { (file) throws(Errno) in try file.duplicate() })
    }

    public func changeMode(_ mode: mode_t) throws {
        let raw = raw
        _ = try Syscalls.retrying("fchmod") { fchmod(raw, mode) }
    }

    public func addSeals(_ seals: Int32) throws {
        let raw = raw
        _ = try Syscalls.retrying("fcntl(F_ADD_SEALS)") { lens_add_seals(raw, UInt32(seals)) }
    }
}
