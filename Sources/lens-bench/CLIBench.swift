import Foundation

/// `cli`: the wall time of one-shot `lensctl status` (a process that starts, connects, opens a
/// session, reads two property sets and exits) next to one-shot `busctl get-property` on the
/// same daemon — the floor any D-Bus CLI pays. Without --bus it starts a private bus and lensd
/// (synthetic camera) from the build directory, as the invoking user, and stops them after.
struct CLIBench {
    var bus: String?
    var runs = 31
    var binaries: URL

    init(_ argv: [String]) throws {
        // The running executable itself: a relative argv[0] through .build/debug was seen to resolve to another checkout's build.
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        binaries = URL(fileURLWithPath: executable).deletingLastPathComponent()
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--bus": bus = rest.popFirst()
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? 0
            default: throw BenchError("usage: \(usage)")
            }
        }
        guard runs >= 20 else { throw BenchError("cli: --runs must be 20 or more for a median worth quoting") }
    }

    func run() throws {
        let lensctl = binaries.appendingPathComponent("lensctl").path
        // lensd only when the bench starts its own.
        for binary in bus == nil ? ["lensctl", "lensd"] : ["lensctl"] where !FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent(binary).path) {
            throw BenchError("cli: no \(binary) beside lens-bench; build it the same way first: "
                + "swift build -c release --static-swift-stdlib --product \(binary)")
        }
        let dir = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var started: [Process] = []
        defer { for process in started.reversed() where process.isRunning { process.terminate(); process.waitUntilExit() } }
        let address: String
        if let bus {
            address = bus
        } else {
            let (busProcess, busAddress) = try startBus(in: dir)
            started.append(busProcess)
            started.append(try startLensd(in: dir, bus: busAddress))
            address = busAddress
        }

        let ours = [lensctl, "status", "--bus", address]
        let floor = ["/usr/bin/busctl", "--address=\(address)", "get-property", "org.lensd.Lens1", "/org/lensd/Lens1",
                     "org.lensd.Lens1.Manager", "Version"]
        for argv in [ours, floor] where try Spawn.run(argv) != 0 { throw BenchError("\(argv.joined(separator: " ")) failed") }
        // Interleaved, so that a busy moment of the machine costs both the same.
        var lensctlTimes: [Double] = [], busctlTimes: [Double] = []
        for _ in 0..<runs {
            lensctlTimes += try Measure.times(runs: 1) { _ = try Spawn.run(ours) }
            busctlTimes += try Measure.times(runs: 1) { _ = try Spawn.run(floor) }
        }
        let lensctlMedian = Measure.median(lensctlTimes), busctlMedian = Measure.median(busctlTimes)
        print("lensctl: \(lensctl) (\(try swiftRuntime(lensctl))); \(runs) runs each, interleaved; bus \(address)")
        print(String(format: "one-shot lensctl status:       median %6.2f ms  (min %.2f)", lensctlMedian, lensctlTimes.min() ?? 0))
        print(String(format: "one-shot busctl get-property:  median %6.2f ms  (min %.2f)", busctlMedian, busctlTimes.min() ?? 0))
        print(String(format: "ratio lensctl / busctl: %.2f×   (target: ≤ 15 ms and ≤ 2×)", lensctlMedian / busctlMedian))
    }

    /// A dbus-daemon that lets anyone own names and call methods: lensd's own check, which
    /// admits root and the invoking user's peers in group lens, is what stands.
    private func startBus(in dir: URL) throws -> (Process, String) {
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

    private func startLensd(in dir: URL, bus: String) throws -> Process {
        let state = dir.appendingPathComponent("state").path
        let config = dir.appendingPathComponent("lensd.conf")
        try Data().write(to: config)
        let process = try launch(binaries.appendingPathComponent("lensd").path,
                                 ["--bus", bus, "--config", config.path, "--state-dir", state, "--camera", "synthetic",
                                  "--location", "optional", "--gpsd", "none", "--log-level", "warning"])
        let probe = ["/usr/bin/busctl", "--address=\(bus)", "get-property", "org.lensd.Lens1", "/org/lensd/Lens1",
                     "org.lensd.Lens1.Manager", "Version"]
        try waitFor("lensd") { (try? Spawn.run(probe)) == 0 }
        return process
    }

    private func launch(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while !condition() {
            guard Date() < deadline else { throw BenchError("cli: \(what) did not come up within 20 s") }
            usleep(20_000)
        }
    }

    /// Whether the Swift runtime is linked in (--static-swift-stdlib) or loaded from the toolchain.
    private func swiftRuntime(_ binary: String) throws -> String {
        let libraries = try Measure.run(["/usr/bin/ldd", binary]).output
        return libraries.contains("libswiftCore") ? "Swift runtime loaded dynamically" : "static Swift stdlib"
    }
}

/// posix_spawn and wait, output to /dev/null: the cheapest way to run a one-shot command, so
/// the measurement holds the command's own cost and little of ours.
enum Spawn {
    static func run(_ argv: [String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard result == 0 else { throw BenchError("cannot start \(argv[0]): \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED/WEXITSTATUS are macros Swift cannot import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }
}
