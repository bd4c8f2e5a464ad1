import Foundation
import LensClient

/// The one line `record` (and `face-capture`) rewrites on a terminal's stderr: "recording 00:12.4  3.1 MB".
final class LiveLine {
    private var shown = false

    /// nil when stderr is not a terminal: a log file gets no carriage returns.
    static func onTerminal() -> LiveLine? {
        isatty(STDERR_FILENO) == 1 ? LiveLine() : nil
    }

    func show(_ progress: LensVideoProgress) { show(Self.text(progress)) }

    func show(_ text: String) {
        // Carriage return, the line, then erase what a longer earlier line left.
        FileHandle.standardError.write(Data("\r\(text)\u{1B}[K".utf8))
        shown = true
    }

    /// Leaves the last figures on their own line.
    func finish() {
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
        shown = false
    }

    static func text(_ progress: LensVideoProgress) -> String {
        // Bounded: a nonsensical figure from the bus must not trap the conversion to Int.
        let seconds = progress.duration.isFinite ? min(max(progress.duration, 0), 1e9) : 0
        let tenths = Int((seconds * 10).rounded(.down))
        let clock = String(format: "%02d:%02d.%d", tenths / 600, tenths % 600 / 10, tenths % 10)
        return "recording \(clock)  \(String(format: "%.1f", Double(progress.size) / 1_000_000)) MB"
    }
}
