import GtkKit

/// The wait before a photo or a recording starts (none, 3 or 10 s), as GNOME Snapshot offers it:
/// a tick a second on the main context, then the capture; cancelling ends it without one.
final class Countdown {
    static let choices = [0, 3, 10]

    /// The seconds left on every tick, nil once it has ended or was cancelled.
    var onTick: (_ remaining: Int?) -> Void = { _ in }
    private(set) var remaining: Int?
    private var timer: UInt32?

    var isRunning: Bool { remaining != nil }

    /// Runs `capture` after `seconds` (at once for 0).
    func start(seconds: Int, then capture: @escaping () -> Void) {
        cancel()
        guard seconds > 0 else { return capture() }
        remaining = seconds
        onTick(seconds)
        timer = MainContext.every(milliseconds: 1000) { [weak self] in
            guard let self, let left = remaining else { return false }
            if left > 1 {
                remaining = left - 1
                onTick(left - 1)
                return true
            }
            timer = nil
            remaining = nil
            onTick(nil)
            capture()
            return false
        }
    }

    func cancel() {
        guard stop() else { return }
        onTick(nil)
    }

    /// Ends it without a tick (its window is closing); true if it was running.
    @discardableResult
    func stop() -> Bool {
        if let timer { MainContext.cancel(timer) }
        timer = nil
        let wasRunning = remaining != nil
        remaining = nil
        return wasRunning
    }
}
