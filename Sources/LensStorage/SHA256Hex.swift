import LensCrypto
import LensSystem

/// SHA-256 digests as the lowercase hex strings lensd reports.
package enum SHA256Hex {
    package static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Of `parts` concatenated, without joining them.
    static func digest(_ parts: [[UInt8]]) -> String {
        let hasher = Hasher(.sha256)
        for part in parts {
            hasher.update(part)
        }
        return encode(hasher.finalize())
    }

    /// Of the file behind `descriptor`, from its current offset to the end, in fixed-size chunks
    /// so a large video never sits in memory whole.
    package static func digest(_ descriptor: borrowing FileDescriptor) throws -> String {
        let hasher = Hasher(.sha256)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            if count == 0 { return encode(hasher.finalize()) }
            chunk.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }
}
