import FoundationEssentials
import LensBus

/// An a{sv} from lensd read field by field. A missing or mistyped field that the contract
/// promises means this client and the daemon disagree, which is reported as `.internal`.
struct Fields {
    private let values: [String: BusValue]
    private let what: String

    init(_ value: BusValue?, _ what: String) throws(LensClientError) {
        guard let values = value?.vardictValue else { throw LensClientError.internal("lensd sent \(what) that is not an a{sv}") }
        self.values = values
        self.what = what
    }

    var isEmpty: Bool { values.isEmpty }

    func string(_ key: String) throws(LensClientError) -> String { try required(key, values[key]?.stringValue) }
    func bool(_ key: String) throws(LensClientError) -> Bool { try required(key, values[key]?.boolValue) }
    func double(_ key: String) throws(LensClientError) -> Double { try required(key, values[key]?.doubleValue) }
    func uint64(_ key: String) throws(LensClientError) -> UInt64 { try required(key, values[key]?.uint64Value) }
    func uint32(_ key: String) throws(LensClientError) -> UInt32 { try required(key, values[key]?.uint32Value) }
    func strings(_ key: String) throws(LensClientError) -> [String] { try required(key, values[key]?.stringArrayValue) }
    func optionalDouble(_ key: String) -> Double? { values[key]?.doubleValue }
    func optionalBool(_ key: String) -> Bool? { values[key]?.boolValue }
    func optionalString(_ key: String) -> String? { values[key]?.stringValue }
    /// A `t` of seconds since 1970, as a date.
    func optionalDate(_ key: String) -> Date? { values[key]?.uint64Value.map { Date(timeIntervalSince1970: Double($0)) } }
    /// An `a{ss}` value; nil when absent or of another type.
    func optionalStringDictionary(_ key: String) -> [String: String]? {
        guard case .dictionary("s", "s", let entries)? = values[key] else { return nil }
        var result: [String: String] = [:]
        for entry in entries {
            guard let name = entry.key.stringValue, let text = entry.value.stringValue else { return nil }
            result[name] = text
        }
        return result
    }
    /// A structure of doubles, such as (dddd); nil when absent or of another type.
    func optionalDoubles(_ key: String) -> [Double]? {
        guard case .structure(let members)? = values[key], case let numbers = members.compactMap(\.doubleValue),
              numbers.count == members.count else { return nil }
        return numbers
    }
    func nested(_ key: String) throws(LensClientError) -> Fields { try Fields(values[key], key) }

    /// A field holding one of a fixed set of wire strings.
    func wire<T: RawRepresentable>(_ key: String, as type: T.Type) throws(LensClientError) -> T where T.RawValue == String {
        let text = try string(key)
        return try required(key, T(rawValue: text))
    }

    private func required<T>(_ key: String, _ value: T?) throws(LensClientError) -> T {
        guard let value else { throw LensClientError.internal("lensd sent \(what) without a valid \(key)") }
        return value
    }
}
