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
        // -displayfd: Xvfb picks a free number and prints it once it accepts clients.
        server = ServerProcess(["/usr/bin/Xvfb", "-displayfd", "1", "-screen", "0", "\(Self.size.width)x\(Self.size.height)x24",
                                "-nolisten", "tcp", "-ac"], name: "Xvfb", logPath: log)
        try server.start {
            (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").contains { Int($0) != nil } ?? false
        }
        let number = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").first { Int($0) != nil }!
        name = ":\(number)"
    }

    deinit { server.stop() }
}
