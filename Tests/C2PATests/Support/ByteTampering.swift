import LensTestSupport
import Foundation

/// Byte-level damage shared by the JPEG and MP4 tamper helpers.
protocol ByteTampering {
    var bytes: [UInt8] { get set }
}

extension ByteTampering {
    func write(to url: URL) throws { try Data(bytes).write(to: url) }

    func offset(of text: String, after start: Int = 0) -> Int? {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }

    func lastOffset(of text: String) -> Int? {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).reversed().first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Where the first claim-signature superbox (`c2cs`) ends: its last bytes are the signature
    /// of the oldest manifest in the store (an ingredient's, when there are several).
    var firstSignatureBoxEnd: Int? {
        guard let type = offset(of: "c2cs") else { return nil }
        let superbox = type - 16  // jumb header, then the jumd header, then the type
        return superbox + bytes[superbox..<(superbox + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    mutating func flip(at offset: Int) { bytes[offset] ^= 0x01 }

    /// Replaces one byte string with another of the same length (e.g. a certificate).
    mutating func replace(_ old: [UInt8], with new: [UInt8]) throws {
        precondition(old.count == new.count)
        guard let start = (0...(bytes.count - old.count)).first(where: { bytes[$0..<($0 + old.count)].elementsEqual(old) })
        else { throw TestToolError("bytes to replace not found") }
        bytes.replaceSubrange(start..<(start + old.count), with: new)
    }
}
