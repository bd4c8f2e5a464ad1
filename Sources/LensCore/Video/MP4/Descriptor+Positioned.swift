import Glibc

// Positioned I/O for the muxer: boxes are written and patched at known offsets, never through
// the shared file offset.
extension Descriptor {
    /// Writes all of `bytes` at `offset`, continuing after short writes.
    func write(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                done += try Syscalls.retrying("pwrite") {
                    pwrite(raw, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                }
            }
        }
    }

    /// Exactly `count` bytes at `offset`; a file that ends before them fails with EIO.
    func read(count: Int, at offset: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                let read = try Syscalls.retrying("pread") {
                    pread(raw, buffer.baseAddress! + done, count - done, off_t(offset + done))
                }
                if read == 0 { throw Syscalls.Failure(call: "pread", path: nil, errno: EIO) }
                done += read
            }
        }
        return bytes
    }

    func truncate(to size: Int) throws {
        _ = try Syscalls.retrying("ftruncate") { ftruncate(raw, off_t(size)) }
    }
}
