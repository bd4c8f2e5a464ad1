/// A CBOR data item (RFC 8949). Maps keep their wire order when decoded, so a claim read from a
/// file can be inspected exactly as it was signed; the encoder sorts keys deterministically.
public indirect enum CBOR: Hashable, Sendable {
    case unsigned(UInt64)
    /// The value -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([Pair])
    case tagged(UInt64, CBOR)
    case bool(Bool)
    case null
    case undefined
    case simple(UInt8)
    case double(Double)

    public struct Pair: Hashable, Sendable {
        public var key: CBOR
        public var value: CBOR
        public init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    public static func int(_ value: Int) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// A map with text keys, the shape of every C2PA structure.
    public static func textMap(_ entries: [(String, CBOR)]) -> CBOR {
        .map(entries.map { Pair(.text($0.0), $0.1) })
    }
}

extension CBOR {
    public subscript(key: String) -> CBOR? { self[.text(key)] }

    /// An explicit null reads as absent: C2PA's optional fields are written either way
    /// (older c2pa-rs wrote `"length": null` in BMFF exclusions).
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self, let value = pairs.first(where: { $0.key == key })?.value,
              value != .null else { return nil }
        return value
    }

    public var textValue: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    public var arrayValue: [CBOR]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var mapPairs: [Pair]? {
        if case .map(let m) = self { return m }
        return nil
    }

    /// The value as a signed integer when it fits.
    public var intValue: Int? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): return n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: return nil
        }
    }

    /// Strips tags, e.g. the tdate tag 0 around a time string.
    public var untagged: CBOR {
        if case .tagged(_, let inner) = self { return inner.untagged }
        return self
    }
}
