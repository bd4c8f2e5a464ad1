import Foundation
import LensTestSupport

/// A virtual X display (Xvfb, software rendering only), on the first free display number,
/// stopped by PID.
final class XvfbDisplay {
    static let size = (width: 1024, height: 768)
    let name: String
    private let server: ServerProcess

    init(logDirectory: TemporaryDirectory) throws {
        let log = logDirectory.file("xvfb.log").path
        // -displayfd: Xvfb picks a free number and prints it. -noreset: no server reset when the
        // last client leaves (a probe, or the app a test quits and starts again).
        server = ServerProcess(["/usr/bin/Xvfb", "-displayfd", "1", "-screen", "0", "\(Self.size.width)x\(Self.size.height)x24",
                                "-nolisten", "tcp", "-ac", "-noreset"], name: "Xvfb", logPath: log)
        var number: Substring?
        // Ready once it has printed its number and a client can talk to it there.
        try server.start {
            number = number ?? (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").first { Int($0) != nil }
            guard let number else { return false }
            return try runProcess(["xdotool", "getdisplaygeometry"], env: ["DISPLAY": ":\(number)"]).status == 0
        }
        name = ":\(number!)"
    }

    deinit { server.stop() }

    /// Whether a window whose title matches `pattern` (a regular expression) is shown now.
    func windowExists(named pattern: String) throws -> Bool {
        try runProcess(["xdotool", "search", "--onlyvisible", "--name", pattern], env: ["DISPLAY": name]).status == 0
    }
}
