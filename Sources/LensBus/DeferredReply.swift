import Synchronization

/// A reply promised now and sent later, e.g. when a worker thread finishes. Answer it exactly
/// once, from any thread: the reply itself is sent from the loop thread. Dropping it unanswered
/// sends org.freedesktop.DBus.Error.NoReply, so the caller does not wait for its timeout.
public final class DeferredReply: Sendable {
    // The request message is only opened on the loop thread (it rides there inside
    // LoopConfined); `pending` is the only state other threads touch, under a lock.
    private let loop: EventLoop
    private let declaredSignature: String
    private let pending: Mutex<LoopConfined<Message>?>

    public init(for call: MethodCall) {
        loop = call.connection.loop
        declaredSignature = call.outSignature
        pending = Mutex(LoopConfined(call.request, on: call.connection.loop))
    }

    public func reply(_ values: [BusValue]) {
        answer(.values(values))
    }

    public func fail(_ error: BusError) {
        answer(.error(error))
    }

    private func answer(_ reply: Reply) {
        guard let request = takeRequest() else {
            assertionFailure("a DeferredReply was answered twice")
            return
        }
        let declaredSignature = self.declaredSignature
        loop.runOnLoop { reply.send(to: request.value, declaredSignature: declaredSignature) }
    }

    private func takeRequest() -> LoopConfined<Message>? {
        pending.withLock { $0.take() }
    }

    deinit {
        guard let request = takeRequest() else { return }
        let dropped = Reply.error(BusError("org.freedesktop.DBus.Error.NoReply",
                                           "The service dropped the request without answering"))
        let declaredSignature = self.declaredSignature
        loop.runOnLoop { dropped.send(to: request.value, declaredSignature: declaredSignature) }
    }
}
