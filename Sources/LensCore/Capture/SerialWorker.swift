import Foundation

/// A dedicated thread running jobs one at a time, in order. Camera and signing work goes here,
/// never on the bus thread and never on Dispatch's width-limited global queue (blocked device I/O
/// there starves everything else; ../shared/dbus/FACTS.md §5).
public final class SerialWorker: @unchecked Sendable {
    // `jobs` and `stopping` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    public func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Finishes queued jobs, then stops the thread; waits for it.
    public func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        finished.wait()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                finished.signal()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
