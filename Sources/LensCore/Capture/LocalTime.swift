import FoundationEssentials
import Glibc

/// The system's local time zone at a moment, as the C library knows it (TZ, /etc/localtime), as a
/// fixed offset: all a manifest records of it. `TimeZone.current` gives the same figure but loads
/// ICU's zone data to do so, measured at 4–5 MB of lensd's resident memory from its first photo on.
public enum LocalTime {
    public static func zone(at date: Date) -> TimeZone {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil, let zone = TimeZone(secondsFromGMT: local.tm_gmtoff) else { return .gmt }
        return zone
    }
}
