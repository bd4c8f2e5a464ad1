import FoundationEssentials
import LensCrypto
import LensSystem

/// SHA-256 as the lower-case hex lensd announces it (PhotoSigned, FetchResult).
enum SHA256Hex {
    static func of(_ bytes: Data) -> String {
        hex(Digest.hash(Array(bytes)))
    }

    /// Of a whole file, read back in pieces from offset 0: a video need not fit in memory.
    static func of(_ file: borrowing FileDescriptor, path: String) throws -> String {
        let hasher = LensCrypto.Hasher(.sha256)  // not the standard library's Hasher
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            } catch {
                throw CommandFailure(.failed, "cannot read back \(path): \(error)")
            }
            if count == 0 { return hex(hasher.finalize()) }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }

    private static func hex(_ digest: [UInt8]) -> String {
        digest.map { String(cFormat: "%02x", $0) }.joined()
    }
}
