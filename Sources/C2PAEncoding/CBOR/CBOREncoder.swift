/// Core deterministic encoding (RFC 8949 §4.2.1): shortest argument forms, definite lengths,
/// map keys sorted by their encoded bytes. `sortingKeys: false` keeps maps in their order instead,
/// which re-creates what a writer that serializes structs in field order (c2pa-rs) signed.
extension CBOR {
    public func encoded(sortingKeys: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out, sortingKeys: sortingKeys)
        return out
    }

    public func encode(into out: inout [UInt8], sortingKeys: Bool = true) {
        switch self {
        case .unsigned(let n): Self.appendHead(major: 0, argument: n, to: &out)
        case .negative(let n): Self.appendHead(major: 1, argument: n, to: &out)
        case .bytes(let b):
            Self.appendHead(major: 2, argument: UInt64(b.count), to: &out)
            out.append(contentsOf: b)
        case .text(let s):
            let utf8 = Array(s.utf8)
            Self.appendHead(major: 3, argument: UInt64(utf8.count), to: &out)
            out.append(contentsOf: utf8)
        case .array(let items):
            Self.appendHead(major: 4, argument: UInt64(items.count), to: &out)
            for item in items { item.encode(into: &out, sortingKeys: sortingKeys) }
        case .map(let pairs):
            let keyed = pairs.map { (key: $0.key.encoded(sortingKeys: sortingKeys), value: $0.value) }
            let ordered = sortingKeys ? keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) } : keyed
            Self.appendHead(major: 5, argument: UInt64(ordered.count), to: &out)
            for pair in ordered {
                out.append(contentsOf: pair.key)
                pair.value.encode(into: &out, sortingKeys: sortingKeys)
            }
        case .tagged(let tag, let inner):
            Self.appendHead(major: 6, argument: tag, to: &out)
            inner.encode(into: &out, sortingKeys: sortingKeys)
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .undefined: out.append(0xf7)
        case .simple(let v):
            if v < 24 { out.append(0xe0 | v) } else { out.append(contentsOf: [0xf8, v]) }
        case .double(let d):
            let single = Float(d)
            if Double(single) == d || d.isNaN {
                out.append(0xfa)
                out.appendBigEndian(single.bitPattern)
            } else {
                out.append(0xfb)
                out.appendBigEndian(d.bitPattern)
            }
        }
    }

    /// Bytes of the head that encodes `argument`: 1, 2, 3, 5 or 9.
    public static func headCount(argument: UInt64) -> Int {
        switch argument {
        case 0..<24: 1
        case 24...0xff: 2
        case 0x100...0xffff: 3
        case 0x1_0000...0xffff_ffff: 5
        default: 9
        }
    }

    static func appendHead(major: UInt8, argument: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xff: out.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xffff:
            out.append(type | 25)
            out.appendBigEndian(UInt16(argument))
        case 0x1_0000...0xffff_ffff:
            out.append(type | 26)
            out.appendBigEndian(UInt32(argument))
        default:
            out.append(type | 27)
            out.appendBigEndian(argument)
        }
    }
}
