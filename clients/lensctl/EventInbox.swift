import FoundationEssentials
import Glibc
import Dispatch
import LensClient
import Synchronization

/// A camera's events for a synchronous command: a task drains `LensCamera.events` into a
/// queue, and `next` blocks until one is there or the time is up.
final class EventInbox: Sendable {
    private let queue = Mutex<[LensEvent]>([])
    private let arrived = DispatchSemaphore(value: 0)

    init(_ camera: LensCamera) {
        let events = camera.events
        Task { [self] in
            for await event in events {
                queue.withLock { $0.append(event) }
                arrived.signal()
            }
        }
    }

    /// The next event, or nil when none arrives before `deadline`.
    func next(before deadline: ContinuousClock.Instant) -> LensEvent? {
        let left = max(.zero, deadline - .now)
        let nanoseconds = Int(left.components.seconds) * 1_000_000_000 + Int(left.components.attoseconds / 1_000_000_000)
        guard arrived.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        return queue.withLock { $0.removeFirst() }
    }
}
