import Foundation
import LensTestSupport

/// The built lens-camera, installed as `make install-app` lays it out (bin/lens-camera and
/// the app's catalogs under share/locale, compiled from po/), run as a user in group lens on
/// the test display and bus in `language`, with a home of its own (where it keeps what it
/// fetched). Stopped by PID.
final class AppUnderTest {
    let home: URL
    private let server: ServerProcess

    /// The binary SwiftPM built next to this test bundle.
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("lens-camera").path
    }

    /// clients/lens-camera/po
    static let catalogs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("po")
    /// clients/lens-camera/data: the icons `make install-app` installs.
    static let data = catalogs.deletingLastPathComponent().appendingPathComponent("data")

    /// `accessible`: with a session bus of its own (the user's dbus-daemon), where GTK publishes
    /// the accessibility tree (AT-SPI) that `accessibleTree()` reads.
    init(display: String, busAddress: String, user: String, language: String = "C.UTF-8", accessible: Bool = false,
         directory: TemporaryDirectory) throws {
        home = directory.file("home-\(user)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let chown = try runProcess(["chown", "\(user):", home.path])
        guard chown.status == 0 else { throw TestToolError("chown \(home.path): \(String(decoding: chown.stderr, as: UTF8.self))") }
        let binary = try Self.install(into: directory.file("prefix"))
        // env sets what the user's session would: the display, a home, the language, software rendering.
        self.user = user
        self.display = display
        var environment = ["DISPLAY=\(display)", "HOME=\(home.path)", "GSK_RENDERER=cairo", "GDK_BACKEND=x11",
                           "LANG=\(language)", "PATH=/usr/bin:/bin"]
        if accessible {
            let socket = home.appendingPathComponent("session-bus").path
            sessionBus = ServerProcess(["/usr/bin/env"] + TestUsers.asUser(user, ["/usr/bin/dbus-daemon", "--session", "--nofork",
                                                                                  "--address=unix:path=\(socket)"]),
                                       name: "session dbus-daemon", logPath: directory.file("session-bus.log").path)
            try sessionBus?.start { FileManager.default.fileExists(atPath: socket) }
            environment.append("DBUS_SESSION_BUS_ADDRESS=unix:path=\(socket)")
            // Run as `user`, who may not reach the checkout: from a copy it can read.
            treeScript = try ReadableCopy.make(of: [Self.treeScriptSource], in: directory.file("scripts"))[0]
        } else {
            environment.append("DBUS_SESSION_BUS_ADDRESS=disabled:")
        }
        server = ServerProcess(["/usr/bin/env"] + TestUsers.asUser(user, ["/usr/bin/env", "-i"] + environment + [binary, "--bus", busAddress]),
                               name: "lens-camera", logPath: directory.file("lens-camera.log").path)
        try server.start { try Self.windowExists(display: display) }
    }

    private let user: String
    private let display: String
    private var sessionBus: ServerProcess?
    /// Scripts/atspi_tree.py, copied (for an app started `accessible`).
    private var treeScript: URL?
    private static let treeScriptSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/atspi_tree.py")

    deinit {
        server.stop()
        sessionBus?.stop()
    }

    /// One node of the accessibility tree, as Scripts/atspi_tree.py reports it.
    struct AccessibleNode: Decodable {
        let role: String
        let name: String
        let depth: Int
        let description: String
        let sensitive: Bool
        let checked: Bool
    }

    /// The app's accessibility tree now, read over AT-SPI by a client of the app's session (only
    /// for an app started `accessible`).
    func accessibleTree() throws -> [AccessibleNode] {
        let address = "unix:path=\(home.appendingPathComponent("session-bus").path)"
        guard let script = treeScript?.path else { throw TestToolError("accessibleTree() needs an app started accessible") }
        let probe = try runProcess(TestUsers.asUser(user, ["/usr/bin/env", "-i", "DISPLAY=\(display)", "HOME=\(home.path)",
                                                         "DBUS_SESSION_BUS_ADDRESS=\(address)", "/usr/bin/python3", script,
                                                         "lens-camera"]))
        guard probe.status == 0 else { throw TestToolError("atspi_tree.py: \(String(decoding: probe.stderr, as: UTF8.self))") }
        return try JSONDecoder().decode([AccessibleNode].self, from: probe.stdout)
    }

    var log: String { server.log }
    var isRunning: Bool { server.process?.isRunning ?? false }
    /// The exit status once it has ended.
    var exitStatus: Int32? { isRunning ? nil : server.process?.terminationStatus }

    /// <prefix>/bin/lens-camera, <prefix>/share/locale/LL/LC_MESSAGES/lens-camera.mo and the icons,
    /// where a setpriv'd user can read them (the build tree may not be reachable).
    private static func install(into prefix: URL) throws -> String {
        let target = prefix.appendingPathComponent("bin/lens-camera")
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(atPath: binary, toPath: target.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target.path)
        let languages = try String(contentsOf: catalogs.appendingPathComponent("LINGUAS"), encoding: .utf8)
        for language in languages.split(whereSeparator: \.isWhitespace) {
            let directory = prefix.appendingPathComponent("share/locale/\(language)/LC_MESSAGES")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let r = try runProcess(["msgfmt", "--check", "-o", directory.appendingPathComponent("lens-camera.mo").path,
                                    catalogs.appendingPathComponent("\(language).po").path])
            guard r.status == 0 else { throw TestToolError("msgfmt \(language).po: \(String(decoding: r.stderr, as: UTF8.self))") }
        }
        for (icon, kind) in [("org.lensd.LensCamera.svg", "apps"), ("org.lensd.LensCamera-flash-symbolic.svg", "actions")] {
            let directory = prefix.appendingPathComponent("share/icons/hicolor/scalable/\(kind)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(icon))
            try FileManager.default.copyItem(at: data.appendingPathComponent(icon), to: directory.appendingPathComponent(icon))
        }
        _ = try runProcess(["chmod", "-R", "a+rX", prefix.path])
        return target.path
    }

    private static func windowExists(display: String) throws -> Bool {
        try runProcess(["xdotool", "search", "--name", "^Lens Camera$"], env: ["DISPLAY": display]).status == 0
    }
}
