import FoundationEssentials
import Glibc
import LensSystem
import LensClient

/// The one line `record` (and `face-capture`) rewrites on a terminal's stderr: "recording 00:12.4  3.1 MB".
/// Off a terminal, `face-capture`'s instructions go out as lines, one each time it changes.
final class LiveLine {
    private let rewrites: Bool
    private var shown: String?

    private init(rewrites: Bool) { self.rewrites = rewrites }

    /// nil when stderr is not a terminal: a log file gets no carriage returns.
    static func onTerminal() -> LiveLine? {
        isTerminal ? LiveLine(rewrites: true) : nil
    }

    /// The line on a terminal; elsewhere (a log, a pipe) a new line whenever the text changes.
    static func changes() -> LiveLine { LiveLine(rewrites: isTerminal) }

    private static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    func show(_ progress: LensVideoProgress) { show(Self.text(progress)) }

    func show(_ text: String) {
        if rewrites {
            // Carriage return, the line, then erase what a longer earlier line left.
            StandardStream.error.write("\r\(text)\u{1B}[K")
        } else if text != shown {
            StandardStream.error.write(text + "\n")
        }
        shown = text
    }

    /// Leaves the last figures on their own line.
    func finish() {
        if rewrites, shown != nil { StandardStream.error.write("\n") }
        shown = nil
    }

    static func text(_ progress: LensVideoProgress) -> String {
        // Bounded: a nonsensical figure from the bus must not trap the conversion to Int.
        let seconds = progress.duration.isFinite ? min(max(progress.duration, 0), 1e9) : 0
        let tenths = Int((seconds * 10).rounded(.down))
        let clock = String(cFormat: "%02d:%02d.%d", tenths / 600, tenths % 600 / 10, tenths % 10)
        return "recording \(clock)  \(String(cFormat: "%.1f", Double(progress.size) / 1_000_000)) MB"
    }
}
