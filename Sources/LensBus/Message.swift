import CSystemd

/// One owned reference to an sd_bus_message, dropped on release. sd-bus reference counts are
/// not atomic, so a Message is created, used and released on the loop thread.
final class Message {
    let pointer: OpaquePointer

    /// Takes over a reference the caller already owns (a message sd-bus just created for us).
    init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Takes a new reference to a message sd-bus lent us (the one a handler is called with).
    init(retaining pointer: OpaquePointer) {
        self.pointer = sd_bus_message_ref(pointer)
    }

    deinit {
        sd_bus_message_unref(pointer)
    }

    var sender: String { sd_bus_message_get_sender(pointer).map { String(cString: $0) } ?? "" }
    var path: String { sd_bus_message_get_path(pointer).map { String(cString: $0) } ?? "" }
    var interface: String { sd_bus_message_get_interface(pointer).map { String(cString: $0) } ?? "" }
    var member: String { sd_bus_message_get_member(pointer).map { String(cString: $0) } ?? "" }

    /// The error carried by an error reply, or nil for any other message.
    var error: BusError? {
        guard sd_bus_message_is_method_error(pointer, nil) > 0,
              let error = sd_bus_message_get_error(pointer) else { return nil }
        return BusError(copying: error.pointee)
    }

    func append(_ values: [BusValue]) throws {
        try MessageWriter(pointer).append(values)
    }

    /// Every value in the body, from the start. `descriptors` says who owns the fds in it.
    func readAll(descriptors: MessageReader.Descriptors) throws -> [BusValue] {
        try check(sd_bus_message_rewind(pointer, 1), "rewinding a message")
        return try MessageReader.readRemaining(pointer, descriptors: descriptors)
    }
}
