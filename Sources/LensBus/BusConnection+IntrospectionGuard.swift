import CSystemd

extension BusConnection {
    /// Answers Introspect calls on `prefix` with only the children `visible(sender)` names, and
    /// on every path below a child not named there with an empty node. sd-bus would otherwise list
    /// every exported child (say, every open session's number) to anyone the bus policy lets
    /// introspect; with one answer for every hidden path, another's object reads the same as a
    /// missing one. Runs before sd-bus's own object dispatch, on the loop thread.
    public func guardIntrospection(under prefix: String, visible: @escaping (String) -> [String]) throws -> any Cancellable {
        let userdata = Userdata.retain(IntrospectionGuard(prefix: prefix, visible: visible))
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
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """
    static let emptyNode = doctype + "<node/>\n"

    let prefix: String
    let visible: (String) -> [String]

    init(prefix: String, visible: @escaping (String) -> [String]) {
        self.prefix = prefix
        self.visible = visible
    }

    /// The node at `prefix` as `children` see it.
    static func node(children: [String]) -> String {
        guard !children.isEmpty else { return emptyNode }
        return doctype + "<node>\n" + children.map { " <node name=\"\($0)\"/>\n" }.joined() + "</node>\n"
    }

    /// 1: answered here; 0: sd-bus goes on as usual.
    static let filter: sd_bus_message_handler_t = { message, userdata, _ in
        let guardian = Userdata.borrow(userdata, as: IntrospectionGuard.self)
        guard sd_bus_message_is_method_call(message, "org.freedesktop.DBus.Introspectable", "Introspect") > 0 else { return 0 }
        let request = Message(retaining: message!)
        let path = request.path
        let answer: String
        if path == guardian.prefix {
            answer = node(children: guardian.visible(request.sender))
        } else if path.hasPrefix(guardian.prefix + "/") {
            let child = String(path.dropFirst(guardian.prefix.count + 1).prefix { $0 != "/" })
            guard !guardian.visible(request.sender).contains(child) else { return 0 }
            answer = emptyNode
        } else {
            return 0
        }
        Reply.values([.string(answer)]).send(to: request, declaredSignature: "s")
        return 1
    }
}
