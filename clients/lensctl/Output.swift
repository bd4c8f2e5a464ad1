import FoundationEssentials
import Glibc
import LensSystem

enum Output {
    static func line(_ text: String) {
        StandardStream.output.write(text + "\n")
    }

    static func error(_ text: String) {
        StandardStream.error.write("lensctl: " + text + "\n")
    }

    /// A progress note on stderr ("waiting for location: 850 m > 50 m").
    static func note(_ text: String) {
        StandardStream.error.write(text + "\n")
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
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, O_RDONLY) } catch {
            throw CommandFailure(.unreadableInput, "cannot open \(path)")
        }
        let bytes: [UInt8]?
        do { bytes = try file.readAll() } catch {
            try? file.close()
            throw CommandFailure(.unreadableInput, "cannot read \(path): \(error)")
        }
        try? file.close()
        return bytes ?? []
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
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(manifestTime)).map(iso8601) ?? manifestTime
    }
}
