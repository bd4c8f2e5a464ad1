import CSystemd

/// A timer, fd watch or signal handler armed on an EventLoop. The loop keeps an armed source
/// alive, so a discarded result still fires; `cancel()` disarms it (a one-shot timer disarms
/// itself when it fires). Loop thread only.
public final class EventSource {
    enum Handler {
        case once(() -> Void)
        case repeating(() -> Void, interval: UInt64)
        case io((UInt32) -> Void)
        case signal((Int32) -> Void)
    }

    /// Dropped on cancel, which breaks cycles through closures that capture their own source.
    private var handler: Handler?
    private weak var loop: EventLoop?
    private var source: OpaquePointer?

    init(_ handler: Handler, loop: EventLoop) {
        self.handler = handler
        self.loop = loop
    }

    func attach(_ source: OpaquePointer) {
        self.source = source
        if case .repeating = handler {
            // Timers start as one-shots; a repeating one stays on and is re-armed on each firing.
            sd_event_source_set_enabled(source, Int32(SD_EVENT_ON))
        }
    }

    /// Idempotent.
    public func cancel() {
        guard let source else { return }
        self.source = nil
        handler = nil
        sd_event_source_disable_unref(source)
        loop?.disarm(self)
    }

    deinit {
        cancel()
    }

    private func fire(_ argument: UInt32) {
        // The handler may cancel this source, dropping the loop's reference mid-call.
        withExtendedLifetime(self) {
            switch handler {
            case nil:
                break
            case .once(let work):
                cancel()
                work()
            case .repeating(let work, let interval):
                if let source { sd_event_source_set_time_relative(source, interval) }
                work()
            case .io(let handler):
                handler(argument)
            case .signal(let handler):
                handler(Int32(bitPattern: argument))
            }
        }
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> EventSource {
        Unmanaged<EventSource>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// sd-event's default accuracy is 250 ms, which would make short timers visibly late.
    static let timerAccuracy: UInt64 = 1_000

    static let timerCallback: sd_event_time_handler_t = { _, _, userdata in
        from(userdata).fire(0)
        return 0
    }

    static let ioCallback: sd_event_io_handler_t = { _, _, revents, userdata in
        from(userdata).fire(revents)
        return 0
    }

    static let signalCallback: sd_event_signal_handler_t = { _, info, userdata in
        from(userdata).fire(info!.pointee.ssi_signo)
        return 0
    }
}
