import CSystemd
import FoundationEssentials

/// The service manager's notification protocol (sd_notify): a no-op unless NOTIFY_SOCKET is set,
/// i.e. unless systemd started the service with Type=notify.
public enum ServiceManager {
    public static func notify(_ state: String) {
        guard ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] != nil else { return }
        _ = sd_notify(0, state)
    }

    /// The watchdog interval systemd expects pings within, if it enabled one for this process.
    public static var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(microseconds))
    }
}
