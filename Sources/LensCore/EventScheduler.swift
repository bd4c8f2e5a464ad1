/// The daemon's event loop as LensCore sees it: LensCore reacts to fds and timers without knowing
/// about D-Bus or sd-event. lensd implements it on top of LensBus's loop. All callbacks run on the
/// loop thread.
public protocol EventScheduler: AnyObject, Sendable {
    /// Calls `handler` whenever `fd` is readable (or has hung up) until the returned token is cancelled.
    // A raw number: the watch only borrows it for sd-event's C API; its owner keeps and closes it.
    func watchReadable(fd: Int32, _ handler: @escaping () -> Void) throws -> ScheduledEvent
    /// Calls `work` once after `delay`.
    func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledEvent
    /// Runs `work` on the loop thread; callable from any thread.
    func post(_ work: @escaping @Sendable () -> Void)
}

/// A watch or timer; cancelling twice is harmless, and dropping the token cancels it.
public protocol ScheduledEvent: AnyObject {
    func cancel()
}
