import LensBus

/// Who may call a member or read a property; the object checks it before the handler runs.
enum Access {
    /// An authorized caller: root, lensd's own user, or a member of the allowed group.
    case member
    /// root only.
    case root
    /// The session's owner (the connection that opened it; any connection of its user for a
    /// persistent session), still a member.
    case owner
    /// The owner, while the session holds the camera claim; the call counts as use of the camera.
    case claimHolder
}

/// The caller of a member, once its access rule let it through.
struct Caller {
    let call: MethodCall
    let uid: UInt32
    var arguments: [BusValue] { call.arguments }
}

/// A bus object as one table, as systemd's hostnamed binds each member to its handler: name and
/// signature (the contract, checked against dbus/org.lensd.Lens1.xml by introspection), the
/// access rule, and the handler. Calls and property access are dispatched through the table (one
/// place, `TableObject`), not a switch over names.
struct BusTable<Object: AnyObject>: Sendable {
    struct Method: Sendable {
        let description: InterfaceDescription.Method
        let access: Access
        /// The SDK's control callbacks carry their error: a failure is also sent as Failed.
        let reportsFailure: Bool
        let handler: @Sendable (Object) -> (Caller) throws -> MethodResult

        init(_ name: String, in inputs: KeyValuePairs<String, String> = [:], out outputs: KeyValuePairs<String, String> = [:],
             access: Access, reportsFailure: Bool = false, _ handler: @escaping @Sendable (Object) -> (Caller) throws -> MethodResult) {
            description = InterfaceDescription.Method(name, in: inputs, out: outputs)
            self.access = access
            self.reportsFailure = reportsFailure
            self.handler = handler
        }
    }

    struct Property: Sendable {
        let description: InterfaceDescription.Property
        let access: Access
        let read: @Sendable (Object) -> BusValue
        let write: (@Sendable (Object, BusValue) throws -> Void)?

        init(_ name: String, _ signature: String, emitsChange: InterfaceDescription.Property.EmitsChange = .yes,
             access: Access, read: @escaping @Sendable (Object) -> BusValue, write: (@Sendable (Object, BusValue) throws -> Void)? = nil) {
            description = InterfaceDescription.Property(name: name, signature: signature, writable: write != nil,
                                                        emitsChange: emitsChange)
            self.access = access
            self.read = read
            self.write = write
        }
    }

    let interface: InterfaceDescription
    private let methods: [String: Method]
    private let properties: [String: Property]

    init(_ name: String, methods: [Method], properties: [Property], signals: [InterfaceDescription.Signal] = []) {
        interface = InterfaceDescription(name: name, methods: methods.map(\.description),
                                         properties: properties.map(\.description), signals: signals)
        self.methods = Dictionary(uniqueKeysWithValues: methods.map { ($0.description.name, $0) })
        self.properties = Dictionary(uniqueKeysWithValues: properties.map { ($0.description.name, $0) })
    }

    /// Each method's access rule and whether it reports failures as Failed.
    var rules: [String: (access: Access, reportsFailure: Bool)] {
        methods.mapValues { ($0.access, $0.reportsFailure) }
    }

    /// sd-bus only calls members of the table; `authorize` applies the entry's rule and says who calls.
    func method(_ name: String) throws -> Method {
        guard let method = methods[name] else { throw BusError("org.freedesktop.DBus.Error.UnknownMethod", "no method \(name)") }
        return method
    }

    func property(_ name: String) throws -> Property {
        guard let property = properties[name] else {
            throw BusError("org.freedesktop.DBus.Error.UnknownProperty", "no property \(name)")
        }
        return property
    }
}

/// What a caller reaches: a method, or a property (read or written).
enum TableEntry {
    case method(String)
    case property(String)

    var name: String {
        switch self {
        case .method(let name), .property(let name): name
        }
    }
}

/// A bus object served from its table: every call, property read and write goes through the
/// table's entry and one access check (`admit`), and a refusal becomes a D-Bus error.
protocol TableObject: BusInterface {
    static var table: BusTable<Self> { get }
    /// Lets `access` to `entry` through for `sender`, answering the caller's uid, or throws NotAuthorized.
    func admit(_ sender: String, _ access: Access, to entry: TableEntry) throws -> UInt32
    /// `.claimHolder`'s claim, checked with the call (a refusal is reported as its failure).
    func requireClaim() throws
    /// A call that failed: the SDK's controls also send Failed (`reportsFailure`).
    func callFailed(_ failure: LensError, reportsFailure: Bool)
}

extension TableObject {
    var interface: InterfaceDescription { Self.table.interface }

    func call(_ call: MethodCall) -> MethodResult {
        let method: BusTable<Self>.Method
        let uid: UInt32
        do {
            method = try Self.table.method(call.member)
            uid = try admit(call.sender, method.access, to: .method(call.member))
        } catch { return .error(BusError.lens(error)) }
        do {
            if method.access == .claimHolder { try requireClaim() }
            return try method.handler(self)(Caller(call: call, uid: uid))
        } catch {
            let failure = LensError.from(error)
            callFailed(failure, reportsFailure: method.reportsFailure)
            return .error(failure.busError)
        }
    }

    func get(property: String, sender: String) throws -> BusValue {
        do {
            let entry = try Self.table.property(property)
            _ = try admit(sender, entry.access, to: .property(property))
            return entry.read(self)
        } catch { throw BusError.lens(error) }
    }

    func set(property: String, value: BusValue, sender: String) throws {
        do {
            let entry = try Self.table.property(property)
            _ = try admit(sender, entry.access, to: .property(property))
            guard let write = entry.write else {
                throw BusError("org.freedesktop.DBus.Error.PropertyReadOnly", "\(property) is read-only")
            }
            try write(self, value)
        } catch { throw BusError.lens(error) }
    }

    func requireClaim() throws {}
    func callFailed(_ failure: LensError, reportsFailure: Bool) {}
}
