import LensSystem
#if canImport(Glibc)
import Glibc
#endif

/// A file the signer and verifier read or write, with its path for error messages: a
/// `FileDescriptor` whose failures become `C2PAError.io` naming the call and the file.
package struct POSIXFile: ~Copyable {
    let descriptor: FileDescriptor
    package let path: String

    package init(path: String, flags: Int32, mode: mode_t = 0o644) throws {
        do {
            descriptor = try FileDescriptor.open(path, flags, mode: mode)
        } catch {
            // Documented for the verifier: a file that cannot be opened is unsupported input.
            throw C2PAError.unsupported("open \(path): \(error)")
        }
        self.path = path
    }

    /// A descriptor already open, reported as `path`.
    package init(_ descriptor: consuming FileDescriptor, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Runs one descriptor call; its errno becomes a `C2PAError.io` naming `call` and the file.
    func io<Result: ~Copyable>(_ call: String, _ body: (borrowing FileDescriptor) throws(SystemError) -> Result) throws(C2PAError) -> Result {
        do {
            return try body(descriptor)
        } catch {
            throw C2PAError.io("\(call) \(path)", error.errno)
        }
    }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try io("read") { (file) throws(SystemError) in try file.read(into: buffer) }
    }

    /// Reads exactly `count` bytes at `offset`; a file that ends first is malformed input.
    package func read(count: Int, at offset: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        guard n == count else { throw C2PAError.malformed("\(path) ends at \(offset + n), \(count) bytes were needed at \(offset)") }
        return bytes
    }

    /// Reads up to `buffer.count` bytes at `offset` without moving the file position; fewer only at the end.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        try io("read") { (file) throws(SystemError) in try file.read(into: buffer, at: offset) }
    }

    /// `prefix` (what was read already) and the rest of the file: for a regular file one buffer of
    /// its size, filled in place (no growing copies, which cost a 4 MB photo several ms); a pipe,
    /// whose size is 0, is read on in chunks.
    package func readRest(after prefix: [UInt8]) throws -> [UInt8] {
        var bytes = try [UInt8](unsafeUninitializedCapacity: max(try size, prefix.count)) { buffer, count in
            count = buffer.initialize(from: prefix).1
            while count < buffer.count {
                let n = try read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
                if n == 0 { break }
                count += n
            }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = try chunk.withUnsafeMutableBytes({ try read(into: $0) }), n > 0 {
            bytes += chunk[..<n]
        }
        return bytes
    }

    package var size: Int {
        get throws { try io("stat") { (file) throws(SystemError) in try file.size() } }
    }

    package func sync() throws {
        try io("fsync") { (file) throws(SystemError) in try file.sync() }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        try io("write") { (file) throws(SystemError) in try file.writeAll(bytes) }
    }

    package func write(_ bytes: [UInt8], at offset: Int) throws {
        try io("write") { (file) throws(SystemError) in try file.writeAll(bytes, at: offset) }
    }

    package func seek(to offset: Int) throws {
        try io("seek") { (file) throws(SystemError) in _ = try file.seek(to: offset) }
    }

    /// Runs `body` over the whole file mapped read-only (pages populated up front), for a regular
    /// file that is not empty; nil for anything else (a pipe), which the caller then reads. The
    /// mapping is undone when `body` returns. Whoever can shrink the file meanwhile can make a read
    /// of the lost pages fault (SIGBUS): map only what the caller's process may lose that way.
    package func mapped<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result? {
        let status = try io("stat") { (file) throws(SystemError) in try file.status() }
        guard status.isRegularFile else { return nil }
        return try descriptor.withMapping(size: status.size, body)
    }

    /// Like `mapped`, for a file that must be mapped: an empty file is an empty buffer, and a
    /// file that cannot be mapped is an error. The file must not shrink meanwhile.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        let size = try size
        guard size > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let result = try descriptor.withMapping(size: size, body) else { throw C2PAError.unsupported("mmap \(path) failed") }
        return result
    }
}
