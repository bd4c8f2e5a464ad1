import FoundationEssentials
import LensSystem
#if canImport(Glibc)
import Glibc
#endif

/// Dates as manifests write them, from the C library's calendar arithmetic: Foundation's
/// Calendar and date formats look up the current time zone through ICU on first use, which
/// makes 4–5 MB of ICU's code and zone data resident in lensd.
package enum Timestamps {
    /// RFC 3339 in UTC with milliseconds, e.g. "2026-11-29T12:00:00.123Z".
    package static func rfc3339UTC(_ date: Date) -> String {
        let c = wallTime(date.timeIntervalSince1970.rounded(.down), offset: 0)
        return String(cFormat: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year, c.month, c.day, c.hour, c.minute, c.second,
                      milliseconds(of: date))
    }

    /// ISO 8601 with an explicit offset, e.g. "2026-11-29T13:00:00+01:00" (XMP's date form), or
    /// "2026-11-29T13:00:00.123+01:00" with `milliseconds`.
    package static func iso8601(_ date: Date, in timeZone: TimeZone, milliseconds: Bool = false) -> String {
        let c = wallTime(date.timeIntervalSince1970.rounded(.down), offset: timeZone.secondsFromGMT(for: date))
        return String(cFormat: "%04d-%02d-%02dT%02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
            + (milliseconds ? String(cFormat: ".%03d", self.milliseconds(of: date)) : "") + offset(of: date, in: timeZone)
    }

    /// Exif's date-time form, "2026:11:29 13:00:00", as the wall clock of `timeZone` showed it.
    package static func exifDateTime(_ date: Date, in timeZone: TimeZone) -> String {
        let c = wallTime(date.timeIntervalSince1970.rounded(.down), offset: timeZone.secondsFromGMT(for: date))
        return String(cFormat: "%04d:%02d:%02d %02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }

    /// The time of day in UTC, for Exif's GPSTimeStamp.
    package static func utcTimeOfDay(_ date: Date) -> (hour: Int, minute: Int, second: Int, milliseconds: Int) {
        let c = wallTime(date.timeIntervalSince1970.rounded(.down), offset: 0)
        return (c.hour, c.minute, c.second, milliseconds(of: date))
    }

    /// The milliseconds past the whole second (truncated, as every form here writes them).
    package static func milliseconds(of date: Date) -> Int {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return min(999, Int(((date.timeIntervalSince1970 - seconds) * 1000).rounded(.down)))
    }

    /// Exif's date stamp form, "2026:11:29", in UTC.
    package static func exifDateUTC(_ date: Date) -> String {
        let c = wallTime(date.timeIntervalSince1970.rounded(.down), offset: 0)
        return String(cFormat: "%04d:%02d:%02d", c.year, c.month, c.day)
    }

    /// "+01:00" / "-05:30" / "+00:00".
    package static func offset(of date: Date, in timeZone: TimeZone) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(cFormat: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// An RFC 3339 date-time ("2025-04-22T22:45:44.334364Z", "…+02:00"), as chrono reads one;
    /// nil for anything else.
    package static func parseRFC3339(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, range.allSatisfy({ (48...57).contains(bytes[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 48) }
        }
        func at(_ index: Int, _ allowed: String) -> Bool { index < bytes.count && allowed.utf8.contains(bytes[index]) }
        guard let year = number(0..<4), at(4, "-"), let month = number(5..<7), at(7, "-"), let day = number(8..<10),
              at(10, "Tt "), let hour = number(11..<13), at(13, ":"), let minute = number(14..<16), at(16, ":"),
              let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if at(index, ".") {
            var scale = 0.1
            index += 1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if at(index, "Zz") {
            index += 1
        } else if at(index, "+-"), let hours = number((index + 1)..<(index + 3)), at(index + 3, ":"),
                  let minutes = number((index + 4)..<(index + 6)), hours < 24, minutes < 60 {
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return Date(timeIntervalSince1970: Double(timegm(&parts) - time_t(offset)) + fraction)
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
