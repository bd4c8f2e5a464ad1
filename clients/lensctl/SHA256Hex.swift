import Foundation
import LensCrypto

/// SHA-256 as the lower-case hex lensd announces it (PhotoSigned, FetchResult).
enum SHA256Hex {
    static func of(_ bytes: Data) -> String {
        hex(Digest.hash(Array(bytes)))
    }

    /// Of a whole file, read back in pieces from offset 0: a video need not fit in memory.
    static func of(fileDescriptor fd: Int32, path: String) throws -> String {
        let hasher = LensCrypto.Hasher(.sha256)  // not the standard library's Hasher
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw CommandFailure(.failed, "cannot read back \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return hex(hasher.finalize()) }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += off_t(count)
        }
    }

    private static func hex(_ digest: [UInt8]) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
