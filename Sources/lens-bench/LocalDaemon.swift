import Foundation

/// A private bus and lensd (synthetic camera, no location) from lens-bench's own build directory,
/// run as the invoking user on tmpfs, stopped by `stop`.
final class LocalDaemon {
    /// The directory lens-bench runs from: the running executable itself (a relative argv[0]
    /// through .build/debug was seen to resolve to another checkout's build).
    static var binaries: URL {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }

    /// Throws, saying how to build it, when one of `names` is not beside lens-bench.
    static func require(_ names: [String], for bench: String) throws {
        for name in names where !FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent(name).path) {
            throw BenchError("\(bench): no \(name) beside lens-bench; build it the same way first: "
                + "swift build -c release --static-swift-stdlib --product \(name)")
        }
    }

    let address: String
    let bus: Process
    let lensd: Process
    private let directory: URL

    init(lensdArguments: [String] = []) throws {
        directory = try Measure.tmpfsDirectory()
        do {
            (bus, address) = try Self.startBus(in: directory)
            do { lensd = try Self.startLensd(in: directory, bus: address, extra: lensdArguments) } catch {
                Self.end(bus)
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    func stop() {
        Self.end(lensd)
        Self.end(bus)
        try? FileManager.default.removeItem(at: directory)
    }

    private static func end(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// A dbus-daemon that lets anyone own names and call methods: lensd's own check, which
    /// admits root and the invoking user's peers in group lens, is what stands.
    private static func startBus(in dir: URL) throws -> (Process, String) {
        let socket = dir.appendingPathComponent("bus").path
        let config = dir.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <auth>EXTERNAL</auth>
              <listen>unix:path=\(socket)</listen>
              <policy context="default">
                <allow user="*"/><allow own="*"/>
                <allow send_type="method_call"/><allow send_type="signal"/>
                <allow send_type="method_return"/><allow send_type="error"/>
                <allow receive_type="method_call"/><allow receive_type="signal"/>
                <allow receive_type="method_return"/><allow receive_type="error"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        let process = try launch("/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork"])
        try waitFor("the bus socket") { FileManager.default.fileExists(atPath: socket) }
        return (process, "unix:path=\(socket)")
    }

    private static func startLensd(in dir: URL, bus: String, extra: [String]) throws -> Process {
        let state = dir.appendingPathComponent("state").path
        let config = dir.appendingPathComponent("lensd.conf")
        try Data().write(to: config)
        let process = try launch(binaries.appendingPathComponent("lensd").path,
                                 ["--bus", bus, "--config", config.path, "--state-dir", state, "--camera", "synthetic",
                                  "--location", "optional", "--gpsd", "none", "--log-level", "warning"] + extra)
        let probe = ["/usr/bin/busctl", "--address=\(bus)", "get-property", "org.lensd.Lens1", "/org/lensd/Lens1",
                     "org.lensd.Lens1.Manager", "Version"]
        do { try waitFor("lensd") { (try? Spawn.run(probe)) == 0 } } catch {
            end(process)
            throw error
        }
        return process
    }

    private static func launch(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Start-up has no event to wait on from here: a liveness poll with a deadline.
    private static func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while !condition() {
            guard Date() < deadline else { throw BenchError("\(what) did not come up within 20 s") }
            usleep(20_000)
        }
    }
}
