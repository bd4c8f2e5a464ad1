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
    /// with InvalidArgs before the handler runs. A descriptor in them is lent by the message for
    /// the handler's run: duplicate it to keep it.
    public var arguments: [BusValue]
    /// Where a deferred answer goes (see DeferredReply).
    let answering: any CallAnswering

    /// A call that did not come through sd-bus: a bus of the caller's own (in-process tests)
    /// dispatches it straight into an object, and `answering` gets what it answers later.
    public init(sender: String, path: String, member: String, arguments: [BusValue], answering: any CallAnswering) {
        self.sender = sender
        self.path = path
        self.member = member
        self.arguments = arguments
        self.answering = answering
    }
}

/// Where the answer to one call goes: sent once, on `loop`'s thread.
public protocol CallAnswering: Sendable {
    var loop: any LoopExecutor { get }
    /// Loop thread; called exactly once per call (DeferredReply sees to it).
    func send(_ answer: Result<[BusValue], BusError>)
}

public enum MethodResult {
    case reply([BusValue])
    case error(BusError)
    /// Answered later through the DeferredReply (made with `DeferredReply(for: call)`).
    case deferred(DeferredReply)
}
