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

    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
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
