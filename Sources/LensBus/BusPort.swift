/// What a service needs of its bus connection: export its objects, follow its callers, learn who
/// they are, and send them signals. `BusConnection` is it over sd-bus; in-process tests bring
/// one of their own, which dispatches calls straight into the exported objects.
public protocol BusPort: AnyObject {
    /// Exports `object` at `path` under its interface until the registration is cancelled.
    func export(_ object: BusInterface, at path: String) throws -> any Cancellable
    /// Calls `onGone` once when `peer` (a unique name) leaves the bus; throws if it is gone already.
    func track(peer: String, onGone: @escaping () -> Void) throws -> any Cancellable
    /// The uid the bus reports for a unique name.
    func peerUID(_ uniqueName: String) throws -> UInt32
    /// A signal, unicast to `destination` or broadcast when it is nil.
    func emitSignal(path: String, interface: String, member: String, arguments: [BusValue], destination: String?) throws
    /// org.freedesktop.DBus.Properties.PropertiesChanged with the new values.
    func emitPropertiesChanged(path: String, interface: String, changed: [String: BusValue], destination: String?) throws
}

extension BusConnection: BusPort {}
