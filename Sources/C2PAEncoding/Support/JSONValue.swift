import FoundationEssentials

/// A JSON value read from an assertion (e.g. `c2pa.metadata`), kept Sendable and printable.
public enum JSONValue: Sendable, Equatable, Encodable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses untrusted JSON in one pass (JSONParser bounds the nesting).
    public init(parsing bytes: [UInt8]) throws {
        self.init(any: try JSONParser.parse(bytes, fragments: true))
    }

    package init(any: Any) {
        switch any {
        case let a as [Any]: self = .array(a.map(JSONValue.init(any:)))
        case let o as [String: Any]: self = .object(o.mapValues(JSONValue.init(any:)))
        case let s as String: self = .string(s)
        case let n as Double: self = .number(n)
        case let b as Bool: self = .bool(b)
        default: self = .null
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        case .bool(let b): try c.encode(b)
        case .null: try c.encodeNil()
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
