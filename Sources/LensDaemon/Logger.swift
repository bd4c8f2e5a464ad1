import FoundationEssentials
import Glibc
import LensSystem
import Synchronization

/// Logs to stderr with sd-daemon `<N>` priority prefixes, which journald reads under systemd;
/// a person at a terminal gets the lines without them.
enum LogLevel: Int, Sendable, CaseIterable {
    case none = -1, error = 3, warning = 4, info = 6, debug = 7

    init?(name: String) {
        switch name {
        case "none": self = .none
        case "error": self = .error
        case "warning": self = .warning
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }
}

enum Log {
    private static let threshold = Atomic<Int>(LogLevel.info.rawValue)
    private static let prefixed = isatty(STDERR_FILENO) == 0

    static func setLevel(_ level: LogLevel) { threshold.store(level.rawValue, ordering: .relaxed) }

    static func error(_ message: @autoclosure () -> String) { write(.error, message) }
    static func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private static func write(_ level: LogLevel, _ message: () -> String) {
        guard level.rawValue <= threshold.load(ordering: .relaxed) else { return }
        let text = message().split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefixed ? "<\(level.rawValue)>\($0)\n" : "\($0)\n" }.joined()
        StandardStream.error.write(text)
    }
}
