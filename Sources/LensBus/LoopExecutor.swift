import LensSystem

/// What the daemon's objects need of their event loop: work handed over from other threads, timers,
/// and which thread is the loop's. `EventLoop` (sd-event) is the one lensd runs on; in-process
/// tests drive one by hand, with a clock they advance.
public protocol LoopExecutor: JobThread {
    /// Whether the caller is on the loop's thread, the only one that may touch loop-confined state.
    var isOnLoopThread: Bool { get }
    /// Thread-safe: queues `work` to run on the loop thread.
    func post(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` once after `delay` (on the monotonic clock). Loop thread only.
    @discardableResult func schedule(after delay: Duration, _ work: @escaping () -> Void) -> any Cancellable
    /// Runs `work` every `interval` until cancelled. Loop thread only.
    @discardableResult func every(_ interval: Duration, _ work: @escaping () -> Void) -> any Cancellable
}

extension LoopExecutor {
    public var isCurrent: Bool { isOnLoopThread }

    public func submit(_ job: @escaping @Sendable () -> Void) { post(job) }

    /// Runs `work` now when already on the loop thread, otherwise posts it there.
    func runOnLoop(_ work: @escaping @Sendable () -> Void) {
        if isOnLoopThread { work() } else { post(work) }
    }

    /// Confines `value` (made on the loop thread) for a trip through another thread.
    public func confine<Value>(_ value: Value) -> Confined<Value> {
        precondition(isOnLoopThread, "only the loop thread confines values to it")
        return Confined(value, on: self)
    }
}
