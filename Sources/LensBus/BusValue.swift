/// A D-Bus value; the wire signature is derived from the case.
///
/// Only `variant` is stored indirectly: the other cases either hold a scalar or already keep
/// their children in an array, so boxing them would cost an allocation per value for nothing.
public enum BusValue: Sendable, Equatable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// Appended with dup semantics (the sender keeps its fd). In a reply it has already been
    /// duplicated with F_DUPFD_CLOEXEC and belongs to the receiver, who must close it; in what a
    /// handler is called with (call arguments, a property write, a signal) it is borrowed from
    /// the message, valid during the handler only: duplicate it to keep it, never close it.
    case fd(Int32)
    /// `ay`, kept as bytes rather than one value per byte: photos and thumbnails travel this way.
    /// Every `ay` that is read arrives as this case.
    case byteArray([UInt8])
    case array(elementSignature: String, [BusValue])
    case dictionary(keySignature: String, valueSignature: String, [DictEntry])
    case structure([BusValue])
    indirect case variant(BusValue)

    /// The D-Bus signature of this value (one complete type).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .fd: "h"
        case .byteArray: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

/// One entry of a D-Bus dictionary (`{kv}` inside an array).
public struct DictEntry: Sendable, Equatable {
    public var key: BusValue
    public var value: BusValue

    public init(key: BusValue, value: BusValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == BusValue {
    /// The signature of a message body holding these values in order.
    var signature: String { map(\.signature).joined() }
}
