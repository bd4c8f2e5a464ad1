/// A thread that runs jobs one at a time, in order: a SerialWorker, or the bus's event loop.
public protocol JobThread: AnyObject, Sendable {
    /// Whether the caller runs on this thread (in one of its jobs).
    var isCurrent: Bool { get }
    /// Thread-safe: queues `job` to run on the thread.
    func submit(_ job: @escaping @Sendable () -> Void)
}

extension SerialWorker: JobThread {}

/// State that only one thread's jobs touch — a camera, a detector, an MP4 writer on a
/// SerialWorker; a bus message or a flow on the event loop: jobs run one at a time, in order, on
/// that thread, so the state needs no lock and need not be Sendable. This is the one place that
/// confinement is claimed unchecked; the classes that hold their state here are Sendable as the
/// compiler checks them.
public final class Confined<State>: @unchecked Sendable {  // `state` is opened only on `thread`
    private var state: State
    private let thread: any JobThread

    public init(_ state: State, on thread: any JobThread) {
        self.state = state
        self.thread = thread
    }

    /// For code that already runs on the thread: the state, now.
    public func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        precondition(thread.isCurrent, "confined state opened off its thread")
        return try body(&state)
    }

    /// On the thread: the state as it is (for a value that is only read, or a reference).
    public var value: State { withState { $0 } }

    /// Thread-safe: queues `job` on the thread, with the state.
    public func submit(_ job: @escaping @Sendable (inout State) -> Void) {
        thread.submit { [self] in job(&state) }
    }

    /// Thread-safe: queues `job` on the thread, with the state to read.
    public func post(_ job: @escaping @Sendable (State) -> Void) {
        thread.submit { [self] in job(state) }
    }
}
