import Foundation

enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("lensctl: " + text + "\n").utf8))
    }

    /// Pretty, key-sorted JSON on stdout.
    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        line(String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self))
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
}
