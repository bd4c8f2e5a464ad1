import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Dates as manifests write them, from the C library's calendar arithmetic: Foundation's
/// Calendar and date formats look up the current time zone through ICU on first use, which
/// makes 4–5 MB of ICU's code and zone data resident in lensd.
enum Timestamps {
    /// RFC 3339 in UTC with milliseconds, e.g. "2026-11-29T12:00:00.123Z".
    static func rfc3339UTC(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let milliseconds = min(999, Int(((date.timeIntervalSince1970 - seconds) * 1000).rounded(.down)))
        let c = wallTime(seconds, offset: 0)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year, c.month, c.day, c.hour, c.minute, c.second, milliseconds)
    }

    /// ISO 8601 with an explicit offset, e.g. "2026-11-29T13:00:00+01:00" (XMP's date form).
    static func iso8601(_ date: Date, in timeZone: TimeZone) -> String {
        let c = wallTime(date.timeIntervalSince1970.rounded(.down), offset: timeZone.secondsFromGMT(for: date))
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
            + offset(of: date, in: timeZone)
    }

    /// Exif's date stamp form, "2026:11:29", in UTC.
    static func exifDateUTC(_ date: Date) -> String {
        let c = wallTime(date.timeIntervalSince1970.rounded(.down), offset: 0)
        return String(format: "%04d:%02d:%02d", c.year, c.month, c.day)
    }

    /// "+01:00" / "-05:30" / "+00:00".
    static func offset(of date: Date, in timeZone: TimeZone) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        let minutes = abs(seconds) / 60
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }

    /// The proleptic Gregorian wall time `offset` seconds east of UTC at `seconds` since 1970.
    private static func wallTime(_ seconds: Double, offset: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var time = time_t(seconds) + time_t(offset)
        var parts = tm()
        gmtime_r(&time, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
