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

    /// Binaries copied where setpriv'd users can execute them (the build tree may not be reachable),
    /// once per build: a copy with the build's size and time is kept.
    public static func installedBinary(_ name: String) throws -> String {
        let source = TestTools.buildDirectory.appendingPathComponent(name).path
        let target = "\(try TestTools.perBuildTreeDirectory("bin"))/\(name)"
        guard try !isCopy(target, of: source) else { return target }
        // Copied by cp, a process of its own, under another name, then renamed over the target:
        // no thread runs a file being written or missing, and no process of the tests ever holds
        // the binary open for writing (a child forked meanwhile would keep that descriptor until
        // its exec, and an exec of the binary then fails with ETXTBSY).
        let staged = "\(target).\(UUID().uuidString.prefix(8))"
        let copy = try runProcess(["cp", "--preserve=mode,timestamps", source, staged])
        guard copy.status == 0 else {
            try? FileManager.default.removeItem(atPath: staged)
            throw TestToolError("cannot copy \(source): \(String(decoding: copy.stderr, as: UTF8.self))")
        }
        guard rename(staged, target) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: staged)
            throw TestToolError("cannot install \(target): \(reason)")
        }
        return target
    }

    /// Whether `copy` has the size and the modification time of `source`. The times are compared
    /// to a millisecond: read back through Date (a Double), equal times of two files can differ
    /// by a few hundred nanoseconds, and compared exactly every call copied the binary again.
    private static func isCopy(_ copy: String, of source: String) throws -> Bool {
        let built = try FileManager.default.attributesOfItem(atPath: source)
        guard let installed = try? FileManager.default.attributesOfItem(atPath: copy),
              let builtAt = built[.modificationDate] as? Date, let installedAt = installed[.modificationDate] as? Date else { return false }
        return installed[.size] as? UInt64 == built[.size] as? UInt64 && abs(builtAt.timeIntervalSince(installedAt)) < 0.001
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
