import Foundation

/// A private dbus-daemon for one test: a session-type bus with an allow-all policy, listening
/// on a socket in its own temporary directory. Started with --fork and stopped by its PID, so
/// nothing depends on a system or session bus being present.
final class PrivateBus {
    /// The D-Bus address to connect to, e.g. "unix:path=/tmp/…/bus,guid=…".
    let address: String
    let pid: pid_t
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lensbus-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // dbus-daemon chdirs to / when it forks, so every path it sees must be absolute.
        let config = directory.appendingPathComponent("bus.conf")
        try Self.configuration(socket: directory.appendingPathComponent("bus").path)
            .write(to: config, atomically: true, encoding: .utf8)

        // The parent exits once the forked daemon listens and has printed its address and pid.
        // A file rather than a pipe: the daemon keeps running after the parent is gone.
        let printed = directory.appendingPathComponent("printed").path
        let status = try spawnAndWait(["/usr/bin/dbus-daemon", "--config-file=\(config.path)",
                                       "--print-address=1", "--print-pid=1", "--fork"], stdoutTo: printed)
        let lines = try String(contentsOfFile: printed, encoding: .utf8).split(separator: "\n")
        guard status == 0, lines.count >= 2, let pid = pid_t(lines[1]) else {
            throw PrivateBusError.startFailed(status: status, output: lines.joined(separator: "\n"))
        }
        address = String(lines[0])
        self.pid = pid
    }

    /// SIGTERM by PID, then waits (briefly) until the daemon is gone.
    func stop() {
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while Self.isRunning(pid), Date() < deadline {
            usleep(10_000)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Not our child (it forked away), so it cannot be waited for; a zombie counts as gone.
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")
    }

    private static func configuration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <!-- Any uid may connect (tests may drop privileges with setpriv), own, call and
                 receive. No eavesdrop: unicast messages reach their destination only. -->
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*"/>
            <allow receive_sender="*"/>
          </policy>
        </busconfig>
        """
    }
}

enum PrivateBusError: Error {
    case startFailed(status: Int32, output: String)
}
