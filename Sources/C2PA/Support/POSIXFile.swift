#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor with the few calls the streaming signer needs; errors carry errno's text.
struct POSIXFile: ~Copyable {
    let fd: Int32
    let path: String

    init(path: String, flags: Int32, mode: mode_t = 0o644) throws {
        let fd = open(path, flags | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Self.error("open", path) }
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw Self.error("read", path) }
        }
    }

    /// Reads exactly `count` bytes at `offset`; a file that ends first is malformed input.
    func read(count: Int, at offset: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        guard n == count else { throw C2PAError.malformed("\(path) ends at \(offset + n), \(count) bytes were needed at \(offset)") }
        return bytes
    }

    /// Reads up to `buffer.count` bytes at `offset` without moving the file position; fewer only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error("read", path)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// `prefix` (what was read already) and the rest of the file: for a regular file one buffer of
    /// its size, filled in place (no growing copies, which cost a 4 MB photo several ms); a pipe,
    /// whose size is 0, is read on in chunks.
    func readRest(after prefix: [UInt8]) throws -> [UInt8] {
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

    var size: Int {
        get throws {
            var status = stat()
            guard fstat(fd, &status) == 0 else { throw Self.error("stat", path) }
            return Int(status.st_size)
        }
    }

    func sync() throws {
        guard fsync(fd) == 0 else { throw Self.error("fsync", path) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try POSIXFileReference(fd: fd, path: path).write(bytes)
    }

    func write(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Self.error("write", path)
                }
                done += n
            }
        }
    }

    func seek(to offset: Int) throws {
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else { throw Self.error("seek", path) }
    }

    static func error(_ call: String, _ path: String) -> C2PAError {
        .unsupported("\(call) \(path): \(String(cString: strerror(errno)))")
    }
}

/// A borrowed descriptor, for the writer thread; the owning `POSIXFile` outlives it.
struct POSIXFileReference: Sendable {
    let fd: Int32
    let path: String

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXFile.error("write", path)
            }
            done += n
        }
    }
}
