import LensSystem
import Synchronization

/// A reply promised now and sent later, e.g. when a worker thread finishes. Answer it exactly
/// once, from any thread: the reply itself is sent from the loop thread. Dropping it unanswered
/// sends org.freedesktop.DBus.Error.NoReply, so the caller does not wait for its timeout.
public final class DeferredReply: Sendable {
    /// Taken by the one answer; only that one reaches the caller.
    private let pending: Mutex<(any CallAnswering)?>

    public init(for call: MethodCall) {
        pending = Mutex(call.answering)
    }

    public func reply(_ values: [BusValue]) {
        answer(.success(values))
    }

    public func fail(_ error: BusError) {
        answer(.failure(error))
    }

    private func answer(_ answer: Result<[BusValue], BusError>) {
        guard let answering = take() else {
            assertionFailure("a DeferredReply was answered twice")
            return
        }
        answering.loop.runOnLoop { answering.send(answer) }
    }

    private func take() -> (any CallAnswering)? {
        pending.withLock { $0.take() }
    }

    deinit {
        guard let answering = take() else { return }
        let dropped = BusError("org.freedesktop.DBus.Error.NoReply", "The service dropped the request without answering")
        answering.loop.runOnLoop { answering.send(.failure(dropped)) }
    }
}

/// The answer to a call that came through sd-bus: a reply to its request message.
struct MessageAnswering: CallAnswering {
    let loop: any LoopExecutor
    /// Only opened on the loop thread.
    let request: Confined<Message>
    let declaredSignature: String

    func send(_ answer: Result<[BusValue], BusError>) {
        let reply: Reply = switch answer {
        case .success(let values): .values(values)
        case .failure(let error): .error(error)
        }
        reply.send(to: request.value, declaredSignature: declaredSignature)
    }
}
