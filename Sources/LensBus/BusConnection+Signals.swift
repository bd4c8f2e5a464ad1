import CSystemd

/// A signal as a subscriber receives it.
public struct SignalMessage: Sendable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [BusValue]
}

extension BusConnection {
    /// Broadcasts a signal, or unicasts it when `destination` is set (the only way per-user data
    /// may travel in a signal: broadcasts reach every connection the policy lets listen).
    public func emitSignal(path: String, interface: String, member: String, arguments: [BusValue],
                           destination: String? = nil) throws {
        var pointer: OpaquePointer?
        try check(sd_bus_message_new_signal(bus, &pointer, path, interface, member),
                  "building signal \(interface).\(member) at \(path)")
        let signal = Message(adopting: pointer!)
        if let destination {
            try check(sd_bus_message_set_destination(signal.pointer, destination), "addressing a signal to \(destination)")
        }
        try signal.append(arguments)
        try check(sd_bus_send(bus, signal.pointer, nil), "sending signal \(interface).\(member)")
    }

    /// org.freedesktop.DBus.Properties.PropertiesChanged(s interface, a{sv} changed, as invalidated),
    /// built by hand because sd_bus_emit_properties_changed can only broadcast.
    public func emitPropertiesChanged(path: String, interface: String, changed: [String: BusValue],
                                      destination: String?) throws {
        try emitSignal(path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                       arguments: [.string(interface), .vardict(changed), .stringArray([])],
                       destination: destination)
    }

    /// Calls `handler` on the loop thread for every signal matching the non-nil fields, until the
    /// registration is cancelled or released. The match is installed on the bus before this returns.
    public func subscribe(sender: String?, path: String?, interface: String?, member: String?,
                          _ handler: @escaping (SignalMessage) -> Void) throws -> BusRegistration {
        let rule = MatchRule.signal(sender: sender, path: path, interface: interface, member: member)
        let userdata = Userdata.retain(Subscription(handler))
        var slot: OpaquePointer?
        let result = sd_bus_add_match(bus, &slot, rule, Subscription.callback, userdata)
        guard result >= 0 else {
            Userdata.release(userdata)
            throw BusError(errno: result, "subscribing to \(rule)")
        }
        sd_bus_slot_set_destroy_callback(slot, Userdata.release)
        return BusRegistration(slot: slot!)
    }
}

enum MatchRule {
    /// "type='signal',sender='…',…" with only the given fields.
    static func signal(sender: String?, path: String?, interface: String?, member: String?) -> String {
        let fields = [("type", "signal"), ("sender", sender), ("path", path), ("interface", interface), ("member", member)]
        return fields.compactMap { key, value in value.map { "\(key)='\(escape($0))'" } }.joined(separator: ",")
    }

    /// Match-rule values are single-quoted; a quote inside is written as '\'' (close, escaped, reopen).
    private static func escape(_ value: String) -> String {
        value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
    }
}

/// One subscriber's handler, kept alive by the match slot.
private final class Subscription {
    let handler: (SignalMessage) -> Void

    init(_ handler: @escaping (SignalMessage) -> Void) {
        self.handler = handler
    }

    static let callback: sd_bus_message_handler_t = { message, userdata, _ in
        let subscription = Userdata.borrow(userdata, as: Subscription.self)
        let signal = Message(retaining: message!)
        // A signal whose body cannot be read is not something a subscriber can act on.
        guard let arguments = try? signal.readAll(descriptors: .borrowed) else { return 0 }
        subscription.handler(SignalMessage(sender: signal.sender, path: signal.path, interface: signal.interface,
                                           member: signal.member, arguments: arguments))
        return 0  // let other matches see it too
    }
}
