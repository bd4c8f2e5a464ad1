import CSystemd

/// A method call built and read back in process, sealed as sd-bus seals one for sending: what a
/// handler receives, without a peer. For the bus reader's fuzz target and tests, which feed the
/// reader every shape a hostile client could send, descriptors included.
public enum SealedMessage {
    /// Appends `values` to a method call, seals it, reads it back as a handler gets it (fds
    /// borrowed from the message) and returns what `inspect` made of the values while the
    /// message lived. Every fd the message carried is closed when this returns, as after a call.
    public static func readBack<T>(_ values: [BusValue], _ inspect: ([BusValue]) throws -> T) throws -> T {
        var made: OpaquePointer?
        try check(lens_bus_new_unconnected(&made), "making an unconnected bus")
        let bus = made!
        defer { sd_bus_close_unref(bus) }
        var pointer: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &pointer, "org.lensd.Sealed", "/", "org.lensd.Sealed", "Call"),
                  "making a method call")
        let message = Message(adopting: pointer!)
        try message.append(values)
        try check(sd_bus_message_seal(message.pointer, 1, 0), "sealing a message")
        return try inspect(try message.readAll(descriptors: .borrowed))
    }
}
