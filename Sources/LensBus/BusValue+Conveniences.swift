// Builders and accessors for the shapes lensd's API uses most: a{sv}, as, ay and scalars.
// Accessors return nil when the value has another type; they never convert between types.

extension BusValue {
    /// `a{sv}`, keys sorted so the same dictionary always produces the same bytes.
    public static func vardict(_ entries: [String: BusValue]) -> BusValue {
        let sorted = entries.sorted { $0.key < $1.key }
        return .dictionary(keySignature: "s", valueSignature: "v",
                           sorted.map { DictEntry(key: .string($0.key), value: .variant($0.value)) })
    }

    /// `as`
    public static func stringArray(_ strings: [String]) -> BusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    /// `ay`
    public static func bytes(_ bytes: [UInt8]) -> BusValue {
        .byteArray(bytes)
    }

    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var objectPathValue: String? {
        if case .objectPath(let value) = self { value } else { nil }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    public var doubleValue: Double? {
        if case .double(let value) = self { value } else { nil }
    }

    public var uint64Value: UInt64? {
        if case .uint64(let value) = self { value } else { nil }
    }

    public var int32Value: Int32? {
        if case .int32(let value) = self { value } else { nil }
    }

    public var uint32Value: UInt32? {
        if case .uint32(let value) = self { value } else { nil }
    }

    public var fdValue: Int32? {
        if case .fd(let value) = self { value } else { nil }
    }

    public var variantValue: BusValue? {
        if case .variant(let value) = self { value } else { nil }
    }

    /// `ay` in either spelling: `.byteArray` or an array of `.byte`.
    public var bytesValue: [UInt8]? {
        switch self {
        case .byteArray(let bytes):
            return bytes
        case .array(elementSignature: "y", let elements):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(elements.count)
            for element in elements {
                guard case .byte(let byte) = element else { return nil }
                bytes.append(byte)
            }
            return bytes
        default:
            return nil
        }
    }

    /// The elements of any array; an `ay` yields `.byte` elements.
    public var arrayValue: [BusValue]? {
        switch self {
        case .array(_, let elements): elements
        case .byteArray(let bytes): bytes.map { .byte($0) }
        default: nil
        }
    }

    /// The strings of an `as`.
    public var stringArrayValue: [String]? {
        guard case .array(elementSignature: "s", let elements) = self else { return nil }
        return elements.compactMap(\.stringValue)
    }

    /// `a{sv}` as a Swift dictionary, each value unwrapped from its variant.
    public var vardictValue: [String: BusValue]? {
        guard case .dictionary(keySignature: "s", valueSignature: "v", let entries) = self else { return nil }
        var result: [String: BusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue, let value = entry.value.variantValue else { return nil }
            result[key] = value
        }
        return result
    }
}
