import LensCore
import LensSystem

/// Where a flow's slow work runs, off the loop thread: signing, reading results back. A
/// SerialWorker (a thread of its own) in lensd; in-process tests may run jobs as they choose.
protocol JobQueue: Sendable {
    func submit(_ job: @escaping @Sendable () -> Void)
    /// Finishes the queued jobs, then stops.
    func stop()
}

extension SerialWorker: JobQueue {}
