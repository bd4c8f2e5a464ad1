/// Builds ISO-BMFF boxes in memory, big-endian, with sizes filled in when a box closes.
struct BoxBuilder {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func fourCC(_ code: String) {
        precondition(code.utf8.count == 4, "four-character code expected: \(code)")
        bytes.append(contentsOf: code.utf8)
    }

    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }

    /// A box with a 32-bit size; in-memory boxes (moov, moof) never come near 4 GiB.
    mutating func box(_ type: String, _ body: (inout BoxBuilder) -> Void) {
        precondition(type.utf8.count == 4, "four-character code expected: \(type)")
        box(type: Array(type.utf8), body)
    }

    /// A box whose type is four bytes that are not text (QuickTime's "©xyz", an ilst item's key index).
    mutating func box(type: [UInt8], _ body: (inout BoxBuilder) -> Void) {
        precondition(type.count == 4, "a box type is four bytes")
        let start = bytes.count
        u32(0)
        bytes.append(contentsOf: type)
        body(&self)
        let size = bytes.count - start
        precondition(size <= Int(UInt32.max), "box \(type) of \(size) bytes built in memory")
        for (index, shift) in [24, 16, 8, 0].enumerated() {
            bytes[start + index] = UInt8(truncatingIfNeeded: UInt32(size) >> UInt32(shift))
        }
    }

    mutating func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ body: (inout BoxBuilder) -> Void) {
        box(type) { builder in
            builder.u32(UInt32(version) << 24 | flags & 0xFF_FFFF)
            body(&builder)
        }
    }

    static func build(_ body: (inout BoxBuilder) -> Void) -> [UInt8] {
        var builder = BoxBuilder()
        body(&builder)
        return builder.bytes
    }
}

extension UInt64 {
    /// u64be, the prefix the bmff hash puts before every hashed box.
    var bigEndianBytes: [UInt8] {
        BoxBuilder.build { $0.u64(self) }
    }
}
