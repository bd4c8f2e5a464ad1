import CSystemd

extension BusConnection {
    /// Answers Introspect calls on `prefix` and every path below it with an empty node when
    /// `isAllowed(sender)` is false. sd-bus would otherwise list the exported children (say,
    /// every open session's number) to anyone the bus policy lets introspect; with one answer for
    /// every path, an existing object also reads the same as a missing one. Runs before sd-bus's
    /// own object dispatch, on the loop thread.
    public func guardIntrospection(under prefix: String, isAllowed: @escaping (String) -> Bool) throws -> BusRegistration {
        let userdata = Userdata.retain(IntrospectionGuard(prefix: prefix, isAllowed: isAllowed))
        var slot: OpaquePointer?
        let result = sd_bus_add_filter(bus, &slot, IntrospectionGuard.filter, userdata)
        guard result >= 0 else {
            Userdata.release(userdata)
            throw BusError(errno: result, "guarding introspection under \(prefix)")
        }
        sd_bus_slot_set_destroy_callback(slot, Userdata.release)
        return BusRegistration(slot: slot!)
    }
}

private final class IntrospectionGuard {
    static let emptyNode = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node/>

        """

    let prefix: String
    let isAllowed: (String) -> Bool

    init(prefix: String, isAllowed: @escaping (String) -> Bool) {
        self.prefix = prefix
        self.isAllowed = isAllowed
    }

    /// 1: answered here; 0: sd-bus goes on as usual.
    static let filter: sd_bus_message_handler_t = { message, userdata, _ in
        let guardian = Userdata.borrow(userdata, as: IntrospectionGuard.self)
        guard sd_bus_message_is_method_call(message, "org.freedesktop.DBus.Introspectable", "Introspect") > 0 else { return 0 }
        let request = Message(retaining: message!)
        let path = request.path
        guard path == guardian.prefix || path.hasPrefix(guardian.prefix + "/"), !guardian.isAllowed(request.sender) else { return 0 }
        Reply.values([.string(emptyNode)]).send(to: request, declaredSignature: "s")
        return 1
    }
}
