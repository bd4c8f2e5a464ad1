import LensBus
import LensCore

/// LensCore's view of the event loop (fds and timers), on top of LensBus's sd-event loop.
final class LoopScheduler: EventScheduler, Sendable {
    private let loop: EventLoop

    init(_ loop: EventLoop) { self.loop = loop }

    func watchReadable(fd: Int32, _ handler: @escaping () -> Void) throws -> ScheduledEvent {
        LoopEvent(try loop.watch(fd: fd, readable: true, writable: false) { _ in handler() })
    }

    func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledEvent {
        LoopEvent(loop.schedule(after: delay, work))
    }

    func post(_ work: @escaping @Sendable () -> Void) { loop.post(work) }
}

private final class LoopEvent: ScheduledEvent {
    private let source: any Cancellable
    init(_ source: any Cancellable) { self.source = source }
    func cancel() { source.cancel() }
    deinit { source.cancel() }
}
