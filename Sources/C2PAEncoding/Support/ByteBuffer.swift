import FoundationEssentials
import LensSystem

/// Big-endian integer appends, the byte order of every box and segment header C2PA uses.
extension Array where Element == UInt8 {
    package mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    package mutating func append(ascii: String) {
        append(contentsOf: Array(ascii.utf8))
    }
}

/// Reads big-endian fields from untrusted bytes; every read is bounds-checked and throws instead of trapping.
package struct ByteReader {
    let bytes: ArraySlice<UInt8>
    package private(set) var position: Int

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    package init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    package var remaining: Int { bytes.endIndex - position }
    var isAtEnd: Bool { position >= bytes.endIndex }

    package mutating func readBytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw C2PAError.malformed("needs \(count) bytes at offset \(position - bytes.startIndex), has \(remaining)")
        }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func readInteger<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let raw = try readBytes(MemoryLayout<T>.size)
        return raw.reduce(T(0)) { ($0 << 8) | T($1) }
    }

    func peekUInt8() throws -> UInt8 {
        guard !isAtEnd else { throw C2PAError.malformed("needs 1 byte at offset \(position - bytes.startIndex), has 0") }
        return bytes[position]
    }

    package mutating func readUInt8() throws -> UInt8 { try readInteger(UInt8.self) }
    mutating func readUInt16() throws -> UInt16 { try readInteger(UInt16.self) }
    package mutating func readUInt32() throws -> UInt32 { try readInteger(UInt32.self) }
    package mutating func readUInt64() throws -> UInt64 { try readInteger(UInt64.self) }

    package mutating func readRest() -> ArraySlice<UInt8> {
        defer { position = bytes.endIndex }
        return bytes[position...]
    }
}

extension Sequence where Element == UInt8 {
    package var hexString: String { map { String(cFormat: "%02x", $0) }.joined() }
}
