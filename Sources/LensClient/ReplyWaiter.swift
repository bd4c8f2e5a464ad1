import Dispatch
import LensBus
import Synchronization

/// One blocking call's rendezvous: the bus thread finishes it, the calling thread waits.
final class ReplyWaiter: Sendable {
    private let result = Mutex<Result<[BusValue], LensClientError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// The first answer wins: a reply that arrives after the connection ended is dropped.
    func finish(_ answer: Result<[BusValue], LensClientError>) {
        let isFirst = result.withLock { result in
            guard result == nil else { return false }
            result = answer
            return true
        }
        if isFirst { done.signal() }
    }

    func wait() -> Result<[BusValue], LensClientError> {
        done.wait()
        return result.withLock { $0! }
    }
}
