import FoundationEssentials
import Glibc
import Dispatch
import Synchronization

/// A dedicated thread running jobs one at a time, in order. Camera and signing work goes here,
/// never on the bus thread and never on Dispatch's width-limited global queue (blocked device I/O
/// there starves everything else).
public final class SerialWorker: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    /// Signalled once for every job queued and once by `stop`; the thread takes one job per signal.
    private let work = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// The worker's thread (pthread_t), once it runs.
    private let thread = Atomic<UInt>(0)

    public init(name: String) {
        Threads.start(named: name) { [self] in run() }
    }

    public func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        work.signal()
    }

    /// Finishes queued jobs, then stops the thread; waits for it.
    public func stop() {
        work.signal()
        finished.wait()
    }

    /// Whether the caller is this worker's thread, i.e. runs in one of its jobs.
    public var isCurrent: Bool { thread.load(ordering: .acquiring) == UInt(pthread_self()) }

    private func run() {
        thread.store(UInt(pthread_self()), ordering: .releasing)
        while true {
            work.wait()
            // Each job is queued before its signal, so a signal that finds no job is stop's,
            // and every job queued before stop has run.
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { break }
            job()
        }
        finished.signal()
    }
}
