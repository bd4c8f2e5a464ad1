import Dispatch
import Foundation
import LensBus
import LensCore
import LensSystem
import Synchronization

/// An event loop the test drives by hand, as swift-nio's EmbeddedEventLoop: work posted from any
/// thread (a worker's completion) waits until the test runs the loop, and timers fire only as the
/// test advances its clock — which is also the clock the daemon reads (`clock`). The loop's thread
/// is the test's.
final class EmbeddedLoop: LoopExecutor, Sendable {
    private struct Timer {
        let id: Int
        var due: Duration
        let interval: Duration?
        let work: () -> Void
    }

    /// Work other threads hand over: the one thing they touch.
    private let posted = Mutex<[@Sendable () -> Void]>([])
    /// Loop thread only, as LoopExecutor's timers are.
    nonisolated(unsafe) private var timers: [Timer] = []
    nonisolated(unsafe) private var nextTimer = 0
    /// Signalled for every post, so a waiting run wakes as work arrives.
    private let arrivals = DispatchSemaphore(value: 0)
    private let manual = ManualClock()
    private let elapsed = Mutex(Duration.zero)
    private let thread = Mutex(pthread_self())

    /// The daemon's clock: moves only with `advance(by:)`.
    var clock: LensClock { manual.clock }

    var isOnLoopThread: Bool { thread.withLock { pthread_equal($0, pthread_self()) != 0 } }

    func post(_ work: @escaping @Sendable () -> Void) {
        posted.withLock { $0.append(work) }
        arrivals.signal()
    }

    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping () -> Void) -> any Cancellable {
        addTimer(after: delay, interval: nil, work)
    }

    @discardableResult
    func every(_ interval: Duration, _ work: @escaping () -> Void) -> any Cancellable {
        addTimer(after: interval, interval: interval, work)
    }

    /// Runs posted work until none is left (work may post more).
    func run() {
        while let work = posted.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { work() }
    }

    /// Runs posted work as it arrives from the daemon's threads until `condition` holds; throws
    /// after `timeout` of real time (a liveness bound, never a measure).
    func run(until condition: () -> Bool, timeout: Duration = .seconds(30), _ what: @autoclosure () -> String) throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            run()
            if condition() { return }
            guard ContinuousClock.now < deadline else { throw HarnessError("\(what()) did not happen within \(timeout)") }
            _ = arrivals.wait(timeout: .now() + .milliseconds(50))
        }
    }

    /// Moves the clock on by `duration`, firing every timer that falls due, in order (running
    /// posted work before each).
    func advance(by duration: Duration) {
        let target = elapsed.withLock { $0 } + duration
        while true {
            run()
            var next: Timer?
            if let index = timers.indices.min(by: { timers[$0].due < timers[$1].due }), timers[index].due <= target {
                let timer = timers.remove(at: index)
                if let interval = timer.interval {
                    timers.append(Timer(id: timer.id, due: timer.due + interval, interval: interval, work: timer.work))
                }
                next = timer
            }
            guard let timer = next else { break }
            setElapsed(timer.due)
            timer.work()
        }
        setElapsed(target)
        run()
    }

    /// Timers armed and not cancelled.
    var pendingTimers: Int { timers.count }

    private func setElapsed(_ value: Duration) {
        let step = elapsed.withLock { elapsed -> Duration in
            let step = value - elapsed
            elapsed = value
            return step
        }
        if step > .zero { manual.advance(by: step) }
    }

    private func addTimer(after delay: Duration, interval: Duration?, _ work: @escaping () -> Void) -> any Cancellable {
        let due = elapsed.withLock { $0 } + delay
        nextTimer += 1
        let id = nextTimer
        timers.append(Timer(id: id, due: due, interval: interval, work: work))
        return EmbeddedTimer { [weak self] in self?.timers.removeAll { $0.id == id } }
    }
}

/// Cancels one of the loop's timers; idempotent. Like an sd-event timer, dropping it does not.
private final class EmbeddedTimer: Cancellable {
    private var disarm: (() -> Void)?
    init(_ disarm: @escaping () -> Void) { self.disarm = disarm }
    func cancel() { disarm.take()?() }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
