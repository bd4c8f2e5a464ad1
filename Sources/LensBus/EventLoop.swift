import CSystemd
import Glibc
import Synchronization

/// An sd-event loop. Everything bus-related happens on the thread that runs it (sd-event and
/// sd-bus are not thread-safe); other threads hand work over with `post`.
public final class EventLoop: LoopExecutor, @unchecked Sendable {  // `event` and `armed` only on the loop thread
    // What other threads may reach (`posted`, `loopThread`) is behind locks.
    let event: OpaquePointer
    private let posted: PostedWork
    /// The thread that runs the loop, or last ran it, or created it.
    private let loopThread: Mutex<pthread_t>
    /// Sources stay alive while armed, so a discarded EventSource still fires.
    private var armed: [ObjectIdentifier: EventSource] = [:]

    public init() throws {
        var event: OpaquePointer?
        try check(sd_event_new(&event), "creating an event loop")
        do {
            posted = try PostedWork(event: event!)
        } catch {
            sd_event_unref(event)
            throw error
        }
        self.event = event!
        loopThread = Mutex(pthread_self())
    }

    deinit {
        for source in armed.values {
            source.cancel()
        }
        posted.detach()
        sd_event_unref(event)
    }

    /// Runs the loop on the calling thread until `exit`; returns the exit code.
    public func run() throws -> Int32 {
        adoptCallingThread()
        return try check(sd_event_loop(event), "running the event loop")
    }

    /// Dispatches at most one round of events, waiting up to `timeout` for one; for callers that
    /// pump the loop themselves (a CLI waiting for a reply, a test). Returns whether anything ran.
    @discardableResult
    public func runOnce(timeout: Duration) throws -> Bool {
        adoptCallingThread()
        return try check(sd_event_run(event, timeout.microseconds), "running the event loop") > 0
    }

    /// Makes `run` return `code` once the current iteration ends. Loop thread only.
    public func exit(_ code: Int32 = 0) {
        sd_event_exit(event, code)
    }

    /// Thread-safe: queues `work` to run on the loop thread.
    public func post(_ work: @escaping @Sendable () -> Void) {
        posted.append(work)
    }

    /// Whether the caller is on the thread that runs the loop (or last ran it, or created it
    /// while nobody has run it yet): the only thread that may touch its connections.
    public var isOnLoopThread: Bool {
        loopThread.withLock { pthread_equal($0, pthread_self()) != 0 }
    }

    private func adoptCallingThread() {
        loopThread.withLock { $0 = pthread_self() }
    }

    // MARK: Sources

    /// Runs `work` once after `delay` (CLOCK_MONOTONIC).
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping () -> Void) -> any Cancellable {
        addTimer(delay, EventSource(.once(work), loop: self))
    }

    /// Runs `work` every `interval` until the returned source is cancelled.
    @discardableResult
    public func every(_ interval: Duration, _ work: @escaping () -> Void) -> any Cancellable {
        addTimer(interval, EventSource(.repeating(work, interval: interval.microseconds), loop: self))
    }

    /// Calls `handler` with the epoll events whenever `fd` is readable and/or writable.
    @discardableResult
    public func watch(fd: Int32, readable: Bool, writable: Bool,
                      _ handler: @escaping (_ revents: UInt32) -> Void) throws -> EventSource {
        let events = (readable ? UInt32(EPOLLIN.rawValue) : 0) | (writable ? UInt32(EPOLLOUT.rawValue) : 0)
        let source = EventSource(.io(handler), loop: self)
        try arm(source, "watching fd \(fd)") { pointer, userdata in
            sd_event_add_io(event, pointer, fd, events, EventSource.ioCallback, userdata)
        }
        return source
    }

    /// Delivers `signals` to `handler` on the loop thread. sd-event blocks each signal with
    /// sigprocmask in the calling thread first (SD_EVENT_SIGNAL_PROCMASK), so call this before
    /// starting other threads, which inherit the mask.
    public func onSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) throws {
        var added: [EventSource] = []
        do {
            for signal in signals {
                let source = EventSource(.signal(handler), loop: self)
                try arm(source, "handling signal \(signal)") { pointer, userdata in
                    sd_event_add_signal(event, pointer, signal | Int32(SD_EVENT_SIGNAL_PROCMASK),
                                        EventSource.signalCallback, userdata)
                }
                added.append(source)
            }
        } catch {
            for source in added { source.cancel() }
            throw error
        }
    }

    /// Timers cannot fail but for lack of memory or a finished loop; rather than make every
    /// caller handle that, such a timer comes back already cancelled.
    private func addTimer(_ delay: Duration, _ source: EventSource) -> EventSource {
        try? arm(source, "adding a timer") { pointer, userdata in
            sd_event_add_time_relative(event, pointer, CLOCK_MONOTONIC, delay.microseconds,
                                       EventSource.timerAccuracy, EventSource.timerCallback, userdata)
        }
        return source
    }

    private func arm(_ source: EventSource, _ context: String,
                     _ add: (UnsafeMutablePointer<OpaquePointer?>, UnsafeMutableRawPointer) -> Int32) throws {
        var pointer: OpaquePointer?
        // Unretained: `armed` keeps the source alive for as long as sd-event may call it.
        try check(add(&pointer, Unmanaged.passUnretained(source).toOpaque()), context)
        source.attach(pointer!)
        armed[ObjectIdentifier(source)] = source
    }

    func disarm(_ source: EventSource) {
        armed[ObjectIdentifier(source)] = nil
    }
}
