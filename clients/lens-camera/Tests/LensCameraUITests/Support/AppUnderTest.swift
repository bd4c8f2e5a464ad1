import Foundation
import LensTestSupport

/// The built lens-camera, run as a user in group lens on the test display and bus, with a home
/// of its own (where it keeps what it fetched). Stopped by PID.
final class AppUnderTest {
    let home: URL
    private let server: ServerProcess

    /// The binary SwiftPM built next to this test bundle.
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("lens-camera").path
    }

    init(display: String, busAddress: String, user: String, directory: TemporaryDirectory) throws {
        home = directory.file("home-\(user)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let chown = try runProcess(["chown", "\(user):", home.path])
        guard chown.status == 0 else { throw TestToolError("chown \(home.path): \(String(decoding: chown.stderr, as: UTF8.self))") }
        let binary = try Self.installed()
        // env sets what the user's session would: the display, a home, software rendering.
        let environment = ["DISPLAY=\(display)", "HOME=\(home.path)", "GSK_RENDERER=cairo", "GDK_BACKEND=x11",
                           "NO_AT_BRIDGE=1", "LANG=C.UTF-8", "DBUS_SESSION_BUS_ADDRESS=disabled:"]
        server = ServerProcess(["/usr/bin/env"] + TestUsers.asUser(user, ["/usr/bin/env", "-i"] + environment + [binary, "--bus", busAddress]),
                               name: "lens-camera", logPath: directory.file("lens-camera.log").path)
        try server.start { try Self.windowExists(display: display) }
    }

    deinit { server.stop() }

    var log: String { server.log }
    var isRunning: Bool { server.process?.isRunning ?? false }

    /// Copied where a setpriv'd user can execute it (the build tree may not be reachable).
    private static func installed() throws -> String {
        let target = "/tmp/lens-camera-test-bin-\(getpid())"
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: binary, toPath: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target)
        return target
    }

    private static func windowExists(display: String) throws -> Bool {
        try runProcess(["xdotool", "search", "--name", "^Lens Camera$"], env: ["DISPLAY": display]).status == 0
    }
}
