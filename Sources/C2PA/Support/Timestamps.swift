import Foundation

enum Timestamps {
    /// RFC 3339 in UTC with milliseconds, e.g. "2026-11-29T12:00:00.123Z".
    static func rfc3339UTC(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    /// ISO 8601 with an explicit offset, e.g. "2026-11-29T13:00:00+01:00" (XMP's date form).
    static func iso8601(_ date: Date, in timeZone: TimeZone) -> String {
        let c = components(date, in: timeZone)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
            + offset(of: date, in: timeZone)
    }

    /// Exif's date stamp form, "2026:11:29", in UTC.
    static func exifDateUTC(_ date: Date) -> String {
        let c = components(date, in: .gmt)
        return String(format: "%04d:%02d:%02d", c.year!, c.month!, c.day!)
    }

    /// "+01:00" / "-05:30" / "+00:00".
    static func offset(of date: Date, in timeZone: TimeZone) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        let minutes = abs(seconds) / 60
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }

    private static func components(_ date: Date, in timeZone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    }
}
