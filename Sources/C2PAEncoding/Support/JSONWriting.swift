/// JSON as lensd writes it into assertions: keys in byte order, slashes unescaped, integral
/// numbers without a fraction. Written here because Foundation's JSONSerialization sorts keys
/// with ICU's collation, which makes 3 MB of ICU resident in lensd from its first photo on.
extension JSONValue {
    public func serialized() throws -> [UInt8] {
        var out: [UInt8] = []
        try write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) throws {
        switch self {
        case .string(let s): Self.write(string: s, into: &out)
        case .number(let n):
            guard n.isFinite else { throw C2PAError.unsupported("JSON has no \(n)") }
            let integral = n == n.rounded() && abs(n) < 1e15
            out += Array((integral ? String(Int64(n)) : String(n)).utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .null: out += Array("null".utf8)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(string: key, into: &out)
                out.append(UInt8(ascii: ":"))
                try members[key]!.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func write(string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case UInt8(ascii: "\n"): out += Array("\\n".utf8)
            case UInt8(ascii: "\r"): out += Array("\\r".utf8)
            case UInt8(ascii: "\t"): out += Array("\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
