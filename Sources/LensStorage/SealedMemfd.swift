import CLinux
import Glibc
import LensSystem

/// The memfd FetchResult hands out: an anonymous in-memory copy of a result that nobody, not
/// even lensd, can change once sealed, so a client may map or read it without trusting lensd to
/// leave the bytes alone, and lensd may delete the file without the client noticing.
enum SealedMemfd {
    /// No write, no truncation, no growth, and no removing any of these.
    static let seals = LENS_SEAL_WRITE | LENS_SEAL_SHRINK | LENS_SEAL_GROW | LENS_SEAL_SEAL

    /// Copies exactly `size` bytes of `source`, read from offset 0, into a new memfd, seals it
    /// and rewinds it.
    static func make(name: String, copying source: borrowing FileDescriptor, size: Int) throws -> FileDescriptor {
        let memfd = try FileDescriptor.sealableMemoryFile(name: name)
        var chunk = [UInt8](repeating: 0, count: min(max(size, 1), 1 << 20))
        var copied = 0
        while copied < size {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, size - copied)]), at: copied)
            }
            // The result was shorter than its size said: never hand out a truncated copy.
            guard count > 0 else { throw SystemError("pread", errno: .io) }
            try chunk.withUnsafeBytes { try memfd.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            copied += count
        }
        try memfd.addSeals(seals)
        // Receivers that read() rather than pread() start at the beginning.
        try memfd.seek(to: 0)
        return memfd
    }
}
