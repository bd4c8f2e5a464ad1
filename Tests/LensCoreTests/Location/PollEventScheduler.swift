import Foundation
import LensCore
import Synchronization

/// A real event loop for the location tests: one dedicated thread around poll(2), with fd
/// watches, timers and a cross-thread queue, honouring EventScheduler's contract (callbacks on
/// the loop thread, dropping a token cancels it). It also traps what would break sd-event in
/// the daemon: registering from another thread, and closing a watched fd before cancelling
/// its watch (POLLNVAL).
final class PollEventScheduler: EventScheduler, @unchecked Sendable {
    // Loop-thread state.
    private var watches: [Weak<Watch>] = []
    private var timers: [Weak<Timer>] = []
    private var running = true
    private var thread: Thread?

    // Cross-thread.
    private let posted = Mutex<[@Sendable () -> Void]>([])
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "pipe failed")
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
        let thread = Thread { [unowned self] in
            self.run()
            self.finished.signal()
        }
        thread.name = "location-test-loop"
        self.thread = thread
        thread.start()
    }

    /// Stops the loop thread and closes its pipe; cancels nothing it does not own.
    func shutdown() {
        post { [unowned self] in self.running = false }
        finished.wait()
        close(wakeRead)
        close(wakeWrite)
    }

    /// Runs `body` on the loop thread and returns its result.
    func sync<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Handoff<T>()
        post {
            result.value = body()
            result.done.signal()
        }
        result.done.wait()
        return result.value!
    }

    /// A result passed from the loop thread to a waiting one; the semaphore orders the accesses.
    private final class Handoff<T>: @unchecked Sendable {
        var value: T?
        let done = DispatchSemaphore(value: 0)
    }

    // MARK: EventScheduler

    func watchReadable(fd: Int32, _ handler: @escaping () -> Void) throws -> ScheduledEvent {
        precondition(Thread.current == thread, "watchReadable called off the loop thread")
        let watch = Watch(fd: fd, handler: handler)
        watches.append(Weak(watch))
        return watch
    }

    func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledEvent {
        precondition(Thread.current == thread, "schedule called off the loop thread")
        let timer = Timer(deadline: .now + delay, work: work)
        timers.append(Weak(timer))
        return timer
    }

    func post(_ work: @escaping @Sendable () -> Void) {
        posted.withLock { $0.append(work) }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already means "wake up"
    }

    // MARK: The loop

    private func run() {
        while running {
            watches.removeAll { $0.object?.handler == nil }
            timers.removeAll { $0.object?.work == nil }
            let live = watches.compactMap(\.object)
            var entries = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            entries += live.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            _ = poll(&entries, nfds_t(entries.count), pollTimeout())

            if entries[0].revents != 0 { drainWakePipe() }
            for work in posted.withLock({ queue in defer { queue = [] }; return queue }) {
                work()
            }
            for (watch, entry) in zip(live, entries.dropFirst()) where entry.revents != 0 {
                precondition(
                    entry.revents & Int16(POLLNVAL) == 0,
                    "fd \(watch.fd) was closed while still watched")
                watch.handler?()  // nil if an earlier callback in this turn cancelled it
            }
            let now = ContinuousClock.now
            let due = timers.compactMap(\.object).filter { $0.deadline <= now }
            for timer in due.sorted(by: { $0.deadline < $1.deadline }) {
                timer.fire()
            }
        }
    }

    /// Milliseconds until the earliest timer, rounded up; -1 (forever) without timers.
    private func pollTimeout() -> Int32 {
        let deadlines = timers.compactMap { $0.object?.deadline }
        guard let next = deadlines.min() else { return -1 }
        let milliseconds = (ContinuousClock.now.duration(to: next) / .milliseconds(1)).rounded(.up)
        return Int32(max(0, min(milliseconds, 60_000)))
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private struct Weak<Object: AnyObject> {
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    private final class Watch: ScheduledEvent {
        let fd: Int32
        var handler: (() -> Void)?
        init(fd: Int32, handler: @escaping () -> Void) {
            self.fd = fd
            self.handler = handler
        }
        func cancel() { handler = nil }
    }

    private final class Timer: ScheduledEvent {
        let deadline: ContinuousClock.Instant
        var work: (() -> Void)?
        init(deadline: ContinuousClock.Instant, work: @escaping () -> Void) {
            self.deadline = deadline
            self.work = work
        }
        func cancel() { work = nil }
        /// Once: the work is released before it runs, so it may reschedule freely.
        func fire() {
            let work = self.work
            self.work = nil
            work?()
        }
    }
}
