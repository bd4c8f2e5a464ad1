import Foundation
import LensTestSupport

/// Every message on the private bus, as `busctl monitor` (root's right on the test bus) sees
/// it: the tests check what the app sent to lensd there, not inside the app.
final class BusMonitor {
    struct Call {
        let member: String
        let arguments: [Any]
    }

    private let server: ServerProcess

    init(address: String, logDirectory: TemporaryDirectory) throws {
        let log = logDirectory.file("bus-monitor.json").path
        server = ServerProcess(["/usr/bin/busctl", "--address=\(address)", "monitor", "--json=short"], name: "busctl monitor",
                               logPath: log)
        // Ready once a call made after it started shows in its output.
        try server.start {
            _ = try runProcess(["busctl", "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                "org.freedesktop.DBus", "GetId"])
            return (try? String(contentsOfFile: log, encoding: .utf8))?.contains("\"member\":\"GetId\"") ?? false
        }
    }

    deinit { server.stop() }

    /// The method calls to lensd's session interface named `member`, oldest first.
    func calls(_ member: String) -> [Call] {
        server.log.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["type"] as? String == "method_call", object["member"] as? String == member,
                  object["interface"] as? String == "org.lensd.Lens1.Session" else { return nil }
            let payload = object["payload"] as? [String: Any]
            return Call(member: member, arguments: payload?["data"] as? [Any] ?? [])
        }
    }

    /// The string values set for the session property `name` (Properties.Set), oldest first.
    func propertySets(_ name: String) -> [String] {
        server.log.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["type"] as? String == "method_call", object["member"] as? String == "Set",
                  object["interface"] as? String == "org.freedesktop.DBus.Properties",
                  let data = (object["payload"] as? [String: Any])?["data"] as? [Any], data.count == 3,
                  data[1] as? String == name else { return nil }
            return (data[2] as? [String: Any])?["data"] as? String
        }
    }
}
