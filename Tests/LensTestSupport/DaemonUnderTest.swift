import Foundation

/// The real lensd binary, run as user lensd on a private bus, killed by PID.
public final class DaemonUnderTest {
    public let stateDirectory: URL
    public let logPath: String
    private var server: ServerProcess?
    public var process: Process? { server?.process }
    private let bus: PrivateSystemBus
    private let arguments: [String]
    private let user: String?
    private let configuration: String
    /// Added to lensd's environment (e.g. NOTIFY_SOCKET).
    public var environment: [String: String] = [:]
    private let directory: TemporaryDirectory

    /// Binaries copied where setpriv'd users can execute them (the build tree may not be reachable).
    public static func installedBinary(_ name: String) throws -> String {
        let dir = try TestTools.perBuildTreeDirectory("bin")
        let source = TestTools.buildDirectory.appendingPathComponent(name).path
        let target = "\(dir)/\(name)"
        let built = try FileManager.default.attributesOfItem(atPath: source)
        let installed = try? FileManager.default.attributesOfItem(atPath: target)
        let sourceDate = built[.modificationDate] as? Date
        // The copy's time is set from the build's through a Double, and comes back up to a
        // microsecond off: compared exactly, every call copied the binary again (13–17 MB, at
        // each lensd start and lensctl run), widening the window for ETXTBSY below.
        let installedDate = installed?[.modificationDate] as? Date
        let upToDate = installed?[.size] as? UInt64 == built[.size] as? UInt64 && sourceDate != nil && installedDate != nil
            && abs(sourceDate!.timeIntervalSince(installedDate!)) < 0.001
        if !upToDate {
            // Copied under another name, then renamed over the target: a test running the binary
            // from several threads never executes a file being written (ETXTBSY) or missing.
            let staged = "\(target).\(UUID().uuidString.prefix(8))"
            try FileManager.default.copyItem(atPath: source, toPath: staged)
            try FileManager.default.setAttributes([.posixPermissions: 0o755, .modificationDate: sourceDate as Any],
                                                  ofItemAtPath: staged)
            guard rename(staged, target) == 0 else {
                try? FileManager.default.removeItem(atPath: staged)
                throw TestToolError("cannot install \(target): \(String(cString: strerror(errno)))")
            }
        }
        return target
    }

    /// `user` nil runs lensd as root (for tests that do not need the service user).
    public init(bus: PrivateSystemBus, arguments: [String] = ["--camera", "synthetic", "--location", "optional", "--gpsd", "none"],
                user: String? = "lensd", stateDirectory: URL? = nil, configuration: String = "") throws {
        directory = try TemporaryDirectory(prefix: "lensd-daemon")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        self.stateDirectory = stateDirectory ?? directory.file("state")
        logPath = directory.file("lensd.log").path
        self.bus = bus
        self.arguments = arguments
        self.user = user
        self.configuration = configuration
    }

    public func start(timeout: TimeInterval = 20) throws {
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        if let user { try check(runProcess(["chown", "-R", "\(user):\(user)", stateDirectory.path]), "chown") }
        let config = directory.file("lensd.conf").path
        // Root-owned and not writable by others, like /etc/lensd/lensd.conf.
        FileManager.default.createFile(atPath: config, contents: Data(configuration.utf8), attributes: [.posixPermissions: 0o644])
        let binary = try Self.installedBinary("lensd")
        let argv = [binary, "--bus", bus.address, "--config", config, "--state-dir", stateDirectory.path,
                    "--synthetic-size", "640x480", "--log-level", "debug"] + arguments
        let command = user.map { TestUsers.asUser($0, argv) } ?? argv
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let server = ServerProcess(["/usr/bin/env"] + command, name: "lensd", logPath: logPath)
        server.environment = environment
        self.server = server
        try server.start(timeout: timeout) { try self.nameHasOwner() }
    }

    /// Whether org.lensd.Lens1 has an owner on the bus.
    private func nameHasOwner() throws -> Bool {
        let r = try runProcess(["busctl", "--address=\(bus.address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                "org.freedesktop.DBus", "NameHasOwner", "s", "org.lensd.Lens1"])
        return String(decoding: r.stdout, as: UTF8.self).contains("true")
    }

    public var pid: Int32 { process?.processIdentifier ?? 0 }

    public var log: String { server?.log ?? "" }

    /// Stops lensd with `signal` and waits for it to exit (SIGKILL when the object goes away).
    public func stop(signal: Int32 = SIGTERM) { server?.stop(signal: signal) }

    private func check(_ r: (status: Int32, stdout: Data, stderr: Data), _ what: String) throws {
        guard r.status == 0 else { throw TestToolError("\(what) failed: \(String(decoding: r.stderr, as: UTF8.self))") }
    }
}
