/// Decodes one CBOR item from untrusted bytes. Lengths are checked against the bytes present
/// before anything is allocated and nesting is bounded. Indefinite lengths are read (older
/// c2pa-rs wrote claim_generator_info that way; the claim's signature covers the raw bytes, so
/// decoding them is only reading).
public enum CBORDecoder {
    public static let maximumDepth = 64

    /// Decodes exactly one item; trailing bytes are an error.
    public static func decode(_ bytes: [UInt8]) throws -> CBOR {
        try decode(bytes[...])
    }

    public static func decode(_ bytes: ArraySlice<UInt8>) throws -> CBOR {
        var reader = ByteReader(bytes)
        let item = try decodeItem(&reader, depth: 0)
        guard reader.isAtEnd else { throw C2PAError.malformed("CBOR: \(reader.remaining) trailing bytes") }
        return item
    }

    private static func decodeItem(_ r: inout ByteReader, depth: Int) throws -> CBOR {
        guard depth < maximumDepth else { throw C2PAError.malformed("CBOR nested deeper than \(maximumDepth)") }
        let initial = try r.readUInt8()
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 { return try decodeSimple(info: info, &r) }
        if info == 31 { return try decodeIndefinite(major: major, &r, depth: depth) }
        let argument = try readArgument(info: info, &r)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Array(try r.readBytes(try length(argument, r))))
        case 3:
            let raw = try r.readBytes(try length(argument, r))
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw C2PAError.malformed("CBOR text is not UTF-8")
            }
            return .text(text)
        case 4:
            // Every item takes at least one byte, so a count beyond the bytes left is a lie.
            let count = try length(argument, r)
            var items: [CBOR] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try decodeItem(&r, depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try length(argument, r)
            var pairs: [CBOR.Pair] = []
            for _ in 0..<count {
                let key = try decodeItem(&r, depth: depth + 1)
                let value = try decodeItem(&r, depth: depth + 1)
                pairs.append(CBOR.Pair(key, value))
            }
            return .map(pairs)
        default:
            return .tagged(argument, try decodeItem(&r, depth: depth + 1))
        }
    }

    private static let breakByte: UInt8 = 0xff

    /// Chunked strings (each chunk a definite string of the same type) and containers whose
    /// items run until a break byte.
    private static func decodeIndefinite(major: UInt8, _ r: inout ByteReader, depth: Int) throws -> CBOR {
        var items: [CBOR] = []
        while try r.peekUInt8() != breakByte {
            items.append(try decodeItem(&r, depth: depth + 1))
        }
        _ = try r.readUInt8()
        switch major {
        case 2:
            let chunks = try items.map { item in
                guard let bytes = item.bytesValue else { throw C2PAError.malformed("CBOR byte string chunk is not a byte string") }
                return bytes
            }
            return .bytes(chunks.flatMap { $0 })
        case 3:
            let chunks = try items.map { item in
                guard let text = item.textValue else { throw C2PAError.malformed("CBOR text chunk is not text") }
                return text
            }
            return .text(chunks.joined())
        case 4:
            return .array(items)
        case 5:
            guard items.count % 2 == 0 else { throw C2PAError.malformed("CBOR map has a key without a value") }
            return .map(stride(from: 0, to: items.count, by: 2).map { CBOR.Pair(items[$0], items[$0 + 1]) })
        default:
            throw C2PAError.malformed("CBOR major type \(major) cannot have an indefinite length")
        }
    }

    private static func readArgument(info: UInt8, _ r: inout ByteReader) throws -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return UInt64(try r.readUInt8())
        case 25: return UInt64(try r.readUInt16())
        case 26: return UInt64(try r.readUInt32())
        case 27: return try r.readUInt64()
        case 31: throw C2PAError.malformed("CBOR indefinite length is not allowed here")
        default: throw C2PAError.malformed("CBOR reserved additional info \(info)")
        }
    }

    private static func length(_ argument: UInt64, _ r: ByteReader) throws -> Int {
        guard argument <= UInt64(r.remaining) else {
            throw C2PAError.malformed("CBOR length \(argument) exceeds the \(r.remaining) bytes left")
        }
        return Int(argument)
    }

    private static func decodeSimple(info: UInt8, _ r: inout ByteReader) throws -> CBOR {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24: return .simple(try r.readUInt8())
        case 25: return .double(Double(halfToFloat(try r.readUInt16())))
        case 26: return .double(Double(Float(bitPattern: try r.readUInt32())))
        case 27: return .double(Double(bitPattern: try r.readUInt64()))
        case 0..<20: return .simple(info)
        case 31: throw C2PAError.malformed("CBOR break outside an indefinite-length item")
        default: throw C2PAError.malformed("CBOR simple value \(info) is not allowed")
        }
    }

    private static func halfToFloat(_ h: UInt16) -> Float {
        let sign: Float = (h & 0x8000) != 0 ? -1 : 1
        let exponent = Int((h >> 10) & 0x1f)
        let fraction = Float(h & 0x3ff)
        switch exponent {
        case 0: return sign * fraction / 1024 * Float(pow2: -14)
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Float(pow2: exponent - 15)
        }
    }
}

private extension Float {
    init(pow2 exponent: Int) { self = Float(sign: .plus, exponent: exponent, significand: 1) }
}
