import Foundation

enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("lensctl: " + text + "\n").utf8))
    }

    /// A progress note on stderr ("waiting for location: 850 m > 50 m").
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A command's result, as text or JSON: on stdout, or on stderr when stdout carries the
    /// result's bytes (`-o -`).
    static func result<T: Encodable>(_ value: T, text: String, json: Bool, standardOutputTaken: Bool) {
        let rendered = json ? encode(value, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) : text
        if standardOutputTaken { note(rendered) } else { line(rendered) }
    }

    /// Pretty, key-sorted JSON on stdout.
    static func json<T: Encodable>(_ value: T) {
        line(encode(value, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
    }

    /// One compact JSON object on one line (JSON Lines, for streams such as `watch`).
    static func jsonLine<T: Encodable>(_ value: T) {
        line(encode(value, [.sortedKeys, .withoutEscapingSlashes]))
    }

    private static func encode<T: Encodable>(_ value: T, _ formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Reads a whole file, pipe or process substitution (`<(lensctl trust-anchor)`).
    static func readInput(_ path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure(.unreadableInput, "cannot open \(path)")
        }
        defer { try? handle.close() }
        do {
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            throw CommandFailure(.unreadableInput, "cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// "2026-11-30T00:33:18Z". By hand: FormatStyle's first use costs a one-shot command ~1.5 ms
    /// of type lookups (measured on `lensctl verify`).
    static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var utc = tm()
        gmtime_r(&seconds, &utc)
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(utc.tm_year + 1900, 4))-\(digits(utc.tm_mon + 1, 2))-\(digits(utc.tm_mday, 2))T"
            + "\(digits(utc.tm_hour, 2)):\(digits(utc.tm_min, 2)):\(digits(utc.tm_sec, 2))Z"
    }

    /// A manifest's time ("2026-12-01T20:36:14-03:00", the device's offset) in UTC with `Z`, as
    /// lensctl prints every time; unchanged when it does not parse.
    static func utc(_ manifestTime: String) -> String {
        let parser = ISO8601DateFormatter()
        if let date = parser.date(from: manifestTime) { return iso8601(date) }
        parser.formatOptions.insert(.withFractionalSeconds)
        return parser.date(from: manifestTime).map(iso8601) ?? manifestTime
    }
}
