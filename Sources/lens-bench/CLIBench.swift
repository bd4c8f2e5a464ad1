import Foundation
import LensSystem

/// `cli`: the wall time of one-shot `lensctl status` (a process that starts, connects, opens a
/// session, reads two property sets and exits) next to one-shot `busctl get-property` on the
/// same daemon — the floor any D-Bus CLI pays. Without --bus it starts a private bus and lensd
/// (synthetic camera) from the build directory, as the invoking user, and stops them after.
struct CLIBench {
    var bus: String?
    var runs = 31
    var binaries: URL

    init(_ argv: [String]) throws {
        binaries = LocalDaemon.binaries
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
        try LocalDaemon.require(bus == nil ? ["lensctl", "lensd"] : ["lensctl"], for: "cli")
        let local = try bus == nil ? LocalDaemon() : nil
        defer { local?.stop() }
        guard let address = bus ?? local?.address else { throw BenchError("cli: no bus") }

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
        _ = try? SystemCalls.retryingInterrupts("waitpid") { waitpid(pid, &status, 0) }
        // WIFEXITED/WEXITSTATUS are macros Swift cannot import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }
}
