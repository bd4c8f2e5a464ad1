/// An object the daemon exports: its description, and handlers sd-bus calls on the loop thread.
public protocol BusInterface: AnyObject {
    /// Read once, when the object is exported.
    var interface: InterfaceDescription { get }
    func call(_ call: MethodCall) -> MethodResult
    /// Property read; throw a BusError to refuse (e.g. the caller is not the owner).
    /// `sender` is the caller's unique name.
    func get(property: String, sender: String) throws -> BusValue
    func set(property: String, value: BusValue, sender: String) throws
}

/// One incoming method call; valid during the handler, on the loop thread.
public struct MethodCall {
    public var sender: String
    public var path: String
    public var member: String
    /// Already checked against the method's inSignature by sd-bus, which answers a mismatch
    /// with InvalidArgs before the handler runs. Received fds belong to the handler.
    public var arguments: [BusValue]
    public let connection: BusConnection
    let request: Message
    let outSignature: String
}

public enum MethodResult {
    case reply([BusValue])
    case error(BusError)
    /// Answered later through the DeferredReply (made with `DeferredReply(for: call)`).
    case deferred(DeferredReply)
}
