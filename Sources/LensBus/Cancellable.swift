/// Something armed that `cancel()` disarms: a timer, an fd watch, an exported object, a signal
/// match, a peer track. Idempotent; dropping a registration cancels it, dropping a timer does not
/// (the loop keeps it armed until it fires or is cancelled).
public protocol Cancellable: AnyObject {
    func cancel()
}

extension EventSource: Cancellable {}
extension BusRegistration: Cancellable {}
