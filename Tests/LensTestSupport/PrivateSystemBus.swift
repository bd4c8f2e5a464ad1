import Foundation
import XCTest

/// A private, system-like dbus-daemon: Debian's system.conf default policy, listening on a socket
/// in a temporary directory, with the project's shipped policy file included — so tests see the
/// same allow/deny rules a real system bus would apply. Started and stopped by PID.
public final class PrivateSystemBus {
    public let address: String
    public let socketPath: String
    private let daemon = Process()
    private let directory: TemporaryDirectory

    /// `policyDirectory` is included like /usr/share/dbus-1/system.d (nil: no service policy at all).
    /// `openDefault` lets anyone own names and call methods — a bus without lensd's policy file,
    /// where only lensd's own checks stand between a caller and the service.
    public init(policyDirectory: URL? = TestTools.repoRoot.appendingPathComponent("dbus"), openDefault: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "lensd-bus")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        socketPath = directory.file("system_bus_socket").path
        let include = policyDirectory.map { "<includedir>\($0.path)</includedir>" } ?? ""
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <auth>EXTERNAL</auth>
          <listen>unix:path=\(socketPath)</listen>
          <policy context="default">
            <allow user="*"/>
            \(openDefault ? "<allow own=\"*\"/>" : "<deny own=\"*\"/>")
            \(openDefault ? "<allow send_type=\"method_call\"/>" : "<deny send_type=\"method_call\"/>")
            <allow send_type="signal"/>
            <allow send_requested_reply="true" send_type="method_return"/>
            <allow send_requested_reply="true" send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
            <allow receive_type="signal"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
            <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus" send_member="UpdateActivationEnvironment"/>
          </policy>
          <policy user="root">
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Monitoring"/>
          </policy>
          \(include)
        </busconfig>
        """
        let configPath = directory.file("system.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        // In the foreground, as our child: Foundation never reaps a --fork parent here, so
        // waiting for one hangs. The address appears in the output file once it listens.
        let printed = directory.file("printed")
        FileManager.default.createFile(atPath: printed.path, contents: nil)
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(configPath)", "--print-address=1", "--nofork"]
        daemon.standardOutput = try FileHandle(forWritingTo: printed)
        daemon.standardInput = FileHandle.nullDevice
        try daemon.run()
        let deadline = Date().addingTimeInterval(10)
        var address: String?
        while address == nil, Date() < deadline, daemon.isRunning {
            let text = (try? String(contentsOf: printed, encoding: .utf8)) ?? ""
            if text.hasSuffix("\n") { address = text.trimmingCharacters(in: .whitespacesAndNewlines) } else { usleep(10_000) }
        }
        guard let address else { throw TestToolError("dbus-daemon did not start with \(configPath)") }
        self.address = address
    }

    /// Re-reads the configuration, e.g. after a policy file changed.
    public func reloadConfiguration() throws {
        let r = try runProcess(["busctl", "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                "org.freedesktop.DBus", "ReloadConfig"])
        guard r.status == 0 else { throw TestToolError("ReloadConfig failed: \(String(decoding: r.stderr, as: UTF8.self))") }
    }

    deinit {
        // Gone before its directory is removed: dbus-daemon unlinks its socket as it exits, and
        // racing that made the removal fail and leave the directory behind.
        if daemon.isRunning {
            kill(daemon.processIdentifier, SIGTERM)
            daemon.waitUntilExit()
        }
    }
}

/// The system users the shipped sysusers.d file declares (lensd, group lens), plus test callers:
/// `lensuser` and `lensuser2` in group lens, `lensother` outside it. Created once, kept.
public enum TestUsers {
    public static let member = "lensuser"
    public static let secondMember = "lensuser2"
    public static let outsider = "lensother"
    /// A member that one test removes from group lens (gpasswd -d) and adds back: no other test uses it.
    public static let revocable = "lensrevoked"

    public static func ensure() throws {
        // Test processes run side by side (scripts/test-shards): one at a time adds the users.
        let lock = open("/tmp/lensd-test-users.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX) == 0 else { throw TestToolError("cannot lock /tmp/lensd-test-users.lock") }
        defer { close(lock) }
        let sysusers = TestTools.repoRoot.appendingPathComponent("systemd/lensd.sysusers").path
        try check(runProcess(["systemd-sysusers", sysusers]), "systemd-sysusers")
        for (user, groups) in [(member, ["lens"]), (secondMember, ["lens"]), (outsider, []), (revocable, ["lens"])] {
            if try runProcess(["getent", "passwd", user]).status == 0 { continue }
            var argv = ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin"]
            if !groups.isEmpty { argv += ["--groups", groups.joined(separator: ",")] }
            try check(runProcess(argv + [user]), "useradd \(user)")
        }
    }

    /// Adds `user` to group lens or removes it, with gpasswd as an administrator would.
    public static func setLensMembership(_ user: String, member: Bool) throws {
        let r = try runProcess(["gpasswd", member ? "-a" : "-d", user, "lens"])
        try check(r, "gpasswd \(member ? "-a" : "-d") \(user) lens")
    }

    public static func uid(_ user: String) throws -> UInt32 {
        guard let entry = getpwnam(user) else { throw TestToolError("no user \(user)") }
        return entry.pointee.pw_uid
    }

    /// argv run as `user` with its groups, as a setpriv'd client would be. A path into the
    /// checkout fails the test: `user` may not be able to enter it (a clone under /root), so what
    /// it runs or reads must be a copy (ReadableCopy, DaemonUnderTest.installedBinary).
    public static func asUser(_ user: String, _ argv: [String]) -> [String] {
        let checkout = TestTools.repoRoot.path + "/"
        for argument in argv where argument.hasPrefix(checkout) {
            XCTFail("\(user) is handed \(argument), in the checkout, which other users may not reach: give it a copy")
        }
        return ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--init-groups", "--"] + argv
    }

    private static func check(_ r: (status: Int32, stdout: Data, stderr: Data), _ what: String) throws {
        guard r.status == 0 else { throw TestToolError("\(what) failed: \(String(decoding: r.stderr, as: UTF8.self))") }
    }
}
