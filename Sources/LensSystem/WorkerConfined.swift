/// State that only one SerialWorker's jobs touch (a camera, a detector, an MP4 writer): jobs run
/// one at a time, in order, on that worker's thread, so the state needs no lock and need not be
/// Sendable. This is the one place that confinement is claimed unchecked; the classes that hold
/// their state here are Sendable as the compiler checks them.
public final class WorkerConfined<State>: @unchecked Sendable {  // `state` is opened only in jobs on `worker`
    private var state: State
    private let worker: SerialWorker

    public init(_ state: State, on worker: SerialWorker) {
        self.state = state
        self.worker = worker
    }

    /// For code that already runs in a job on the worker (another holder's job on the same
    /// worker): the state, now.
    public func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        precondition(worker.isCurrent, "worker-confined state opened off its worker's thread")
        return try body(&state)
    }

    /// Queues `job` on the worker, with the state.
    public func submit(_ job: @escaping @Sendable (inout State) -> Void) {
        worker.submit { [self] in job(&state) }
    }
}
