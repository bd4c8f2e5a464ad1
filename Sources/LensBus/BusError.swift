import CSystemd

/// A D-Bus error: the name travels on the wire, so clients can tell errors apart by it.
public struct BusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// For example "org.lensd.Lens1.Error.Busy" or "org.freedesktop.DBus.Error.InvalidArgs".
    public var name: String
    public var message: String

    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    /// org.freedesktop.DBus.Error.InvalidArgs
    public static func invalidArgs(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    /// org.freedesktop.DBus.Error.Failed, for failures that have no better name.
    public static func failed(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.Failed", message)
    }

    public var description: String { "\(name): \(message)" }
}

extension BusError {
    /// The error sd-bus itself would report for a negative errno return (its errno→name map),
    /// prefixed with what we were doing so logs say where it failed.
    init(errno code: Int32, _ context: String) {
        var error = sd_bus_error()
        sd_bus_error_set_errno(&error, code)
        defer { sd_bus_error_free(&error) }
        let copied = BusError(copying: error)
        self.init(copied.name, "\(context): \(copied.message)")
    }

    /// A copy of an sd_bus_error filled in by sd-bus (a failed call or an error reply).
    init(copying error: sd_bus_error) {
        let name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        let message = error.message.map { String(cString: $0) } ?? ""
        self.init(name, message)
    }

    /// Converts any error thrown by a handler into the BusError that goes back to the caller.
    init(reporting error: any Error) {
        if let busError = error as? BusError {
            self = busError
        } else {
            self = .failed(String(describing: error))
        }
    }

    /// Fills an sd-bus handler's `ret_error`; returns the negative errno sd-bus expects back.
    func fill(_ target: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let sendable = wireSafe
        return sd_bus_error_set(target, sendable.name, sendable.message)
    }

    /// sd-bus sends whatever error name it is given, and dbus-daemon disconnects a peer that
    /// sends an invalid one, so a malformed name (a daemon bug) goes out as Failed instead.
    private var wireSafe: BusError {
        Self.isValidName(name) ? self : .failed("\(name): \(message)")
    }

    /// Error names follow the interface-name rules: at least two dot-separated elements of
    /// [A-Za-z0-9_], none empty or starting with a digit, at most 255 bytes.
    private static func isValidName(_ name: String) -> Bool {
        let elements = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return name.utf8.count <= 255 && elements.count >= 2 && elements.allSatisfy { element in
            guard let first = element.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
            return element.allSatisfy { byte in
                byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            }
        }
    }
}

/// Throws a BusError for a negative sd-bus / sd-event return value; passes others through.
@discardableResult
func check(_ result: Int32, _ context: @autoclosure () -> String) throws -> Int32 {
    if result < 0 { throw BusError(errno: result, context()) }
    return result
}
