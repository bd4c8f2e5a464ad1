import CSystemd

extension BusConnection {
    /// Calls a method and waits for the reply. Error replies throw BusError with the remote
    /// name and message. On the loop thread (or while nobody runs the loop).
    public func call(destination: String, path: String, interface: String, member: String,
                     arguments: [BusValue] = [], timeout: Duration = .seconds(25)) throws -> [BusValue] {
        let request = try methodCall(destination, path, interface, member, arguments)
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, request.pointer, timeout.microseconds, &error, &reply)
        guard result >= 0 else {
            if sd_bus_error_is_set(&error) != 0 { throw BusError(copying: error) }
            throw BusError(errno: result, "calling \(interface).\(member) on \(destination)")
        }
        return try Message(adopting: reply!).readAll(descriptors: .duplicated)
    }

    /// Calls a method; `reply` runs on the loop thread with the result, the error reply, or a
    /// NoReply error on timeout or when the peer disconnects. If this connection is closed
    /// first, `reply` is released without being called.
    public func callAsync(destination: String, path: String, interface: String, member: String,
                          arguments: [BusValue] = [], timeout: Duration = .seconds(25),
                          reply: @escaping (Result<[BusValue], BusError>) -> Void) throws {
        let request = try methodCall(destination, path, interface, member, arguments)
        let userdata = Userdata.retain(PendingReply(reply))
        var slot: OpaquePointer?
        let result = sd_bus_call_async(bus, &slot, request.pointer, PendingReply.callback, userdata,
                                       timeout.microseconds)
        guard result >= 0 else {
            Userdata.release(userdata)
            throw BusError(errno: result, "calling \(interface).\(member) on \(destination)")
        }
        // Hand the slot to the bus: it frees it after the reply, and the destroy callback then
        // releases the PendingReply (also when the connection goes away first).
        sd_bus_slot_set_destroy_callback(slot, Userdata.release)
        sd_bus_slot_set_floating(slot, 1)
        sd_bus_slot_unref(slot)
    }

    private func methodCall(_ destination: String, _ path: String, _ interface: String, _ member: String,
                            _ arguments: [BusValue]) throws -> Message {
        var pointer: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &pointer, destination, path, interface, member),
                  "building a call to \(interface).\(member) at \(path)")
        let request = Message(adopting: pointer!)
        try request.append(arguments)
        return request
    }
}

/// The reply handler of one asynchronous call, kept alive by the call's slot.
private final class PendingReply {
    let handler: (Result<[BusValue], BusError>) -> Void

    init(_ handler: @escaping (Result<[BusValue], BusError>) -> Void) {
        self.handler = handler
    }

    static let callback: sd_bus_message_handler_t = { message, userdata, _ in
        let pending = Userdata.borrow(userdata, as: PendingReply.self)
        let reply = Message(retaining: message!)
        if let error = reply.error {
            pending.handler(.failure(error))
        } else {
            pending.handler(Result { try reply.readAll(descriptors: .duplicated) }.mapError { BusError(reporting: $0) })
        }
        return 0
    }
}
