import CSystemd

/// One connection to a bus, attached to an EventLoop.
public final class BusConnection: @unchecked Sendable {  // used on its loop's thread only (sd-bus is not thread-safe)
    // Sendable so that posted work can carry it back to that thread.
    let bus: OpaquePointer
    public let loop: EventLoop
    public let uniqueName: String
    /// peerUID answers, by unique name; see BusConnection+Peers.
    var peerUIDs: [String: UInt32] = [:]
    private var isClosed = false

    /// Connects, waits for the bus to assign a unique name, and attaches to `loop`.
    public init(_ address: BusAddress, loop: EventLoop, description: String? = nil) throws {
        let bus = try Self.open(address, description: description)
        do {
            var name: UnsafePointer<CChar>?
            try check(sd_bus_get_unique_name(bus, &name), "waiting for a unique name")
            uniqueName = String(cString: name!)
            try check(sd_bus_attach_event(bus, loop.event, 0), "attaching the bus to the event loop")
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
        self.bus = bus
        self.loop = loop
    }

    deinit {
        close()
        sd_bus_unref(bus)
    }

    private static func open(_ address: BusAddress, description: String?) throws -> OpaquePointer {
        var bus: OpaquePointer?
        switch address {
        case .system:
            try check(sd_bus_open_system_with_description(&bus, description), "connecting to the system bus")
        case .session:
            try check(sd_bus_open_user_with_description(&bus, description), "connecting to the session bus")
        case .address(let address):
            try check(sd_bus_new(&bus), "creating a bus connection")
            do {
                try check(sd_bus_set_address(bus, address), "using bus address \(address)")
                try check(sd_bus_set_bus_client(bus, 1), "configuring the bus connection")
                if let description {
                    try check(sd_bus_set_description(bus, description), "naming the bus connection")
                }
                try check(sd_bus_start(bus), "connecting to \(address)")
            } catch {
                sd_bus_unref(bus)
                throw error
            }
        }
        return bus!
    }

    /// Takes `name` as primary owner; fails if the bus policy forbids it or someone else has it.
    public func requestName(_ name: String) throws {
        // Called by hand instead of sd_bus_request_name, which reduces the bus's error
        // (e.g. the policy's AccessDenied text) to an errno.
        let doNotQueue: UInt32 = 4
        let reply = try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                             interface: "org.freedesktop.DBus", member: "RequestName",
                             arguments: [.string(name), .uint32(doNotQueue)])
        switch reply.first?.uint32Value {
        case 1, 4:  // primary owner now, or already
            return
        default:
            throw BusError("org.freedesktop.DBus.Error.FileExists", "The name \(name) is already owned")
        }
    }

    /// Writes out every queued message (blocking).
    public func flush() {
        sd_bus_flush(bus)
    }

    /// Flushes and disconnects; idempotent. Registrations stay valid objects but do nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        sd_bus_flush(bus)
        sd_bus_close(bus)
        sd_bus_detach_event(bus)
    }
}
