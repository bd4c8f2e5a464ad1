import Foundation
import LensTestSupport
import XCTest

/// scripts/try (issue 34), on the debug build (`--bin`): lensd on a private bus that lensctl and
/// busctl reach through LENSD_BUS and DBUS_SYSTEM_BUS_ADDRESS, a location fix that holds across
/// the NMEA log's loop, and nothing left running — nor its directory — when its command ends or
/// it is sent SIGTERM or SIGINT. try runs in a session of its own, so that every process it
/// started, and none of anyone else's, is found by its session id.
final class TryScriptTests: XCTestCase {
    private var tmp: TemporaryDirectory!

    override func setUpWithError() throws { tmp = try TemporaryDirectory(prefix: "lensd-try-test") }
    override func tearDown() { tmp = nil }

    func testLensctlAndBusctlReachTheLensdItStartsAndNothingOutlivesIt() throws {
        let run = try Try(["bash", "-c", """
            lensctl status
            busctl get-property org.lensd.Lens1 /org/lensd/Lens1 org.lensd.Lens1.Manager EnrollmentState
            echo "work: ${LENSD_BUS#unix:path=}"
            """], log: tmp.file("try.log"))
        try run.waitForExit()
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("Capture: enabled"), "try opens its shell once lensd has a fix:\n\(run.output)")
        XCTAssertTrue(run.output.contains("Location: -33.045600, -70.061200 ± 4 m"), run.output)
        XCTAssertTrue(run.output.contains(#"s "enrolled""#), "busctl reached lensd through DBUS_SYSTEM_BUS_ADDRESS:\n\(run.output)")
        try run.assertNothingLeft()
    }

    /// The fix holds past the end of the log (12 s of fix epochs at 5 a second, looped), and its
    /// time never goes back: watch sees no LocationChanged without a location in 20 s.
    func testTheFixHoldsAcrossTheLogsLoop() throws {
        let run = try Try(["lensctl", "watch", "--json", "--duration", "20"], log: tmp.file("try.log"))
        try run.waitForExit(within: 60)
        XCTAssertEqual(run.status, 0, run.output)
        let events = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let locations = events.filter { $0["event"] as? String == "LocationChanged" }.map { $0["location"] as? [String: Any] }
        XCTAssertGreaterThan(locations.count, 15, "a LocationChanged a second for 20 s:\n\(run.output)")
        XCTAssertFalse(locations.contains { $0 == nil }, "the fix was lost:\n\(run.output)")
        XCTAssertFalse(events.contains { $0["event"] as? String == "CaptureDisabled" }, run.output)
        let times = locations.compactMap { $0?["fix_time"] as? String }
        XCTAssertEqual(times, times.sorted(), "the fix's time went back")
        try run.assertNothingLeft()
    }

    func testSIGTERMAndSIGINTStopEverythingItStarted() throws {
        for signal in [SIGTERM, SIGINT] {
            let run = try Try(["bash", "-c", "lensctl status > /dev/null && echo \"ready: ${LENSD_BUS#unix:path=}\" && sleep 600"],
                              log: tmp.file("try-\(signal).log"))
            try run.waitForOutput("ready")
            XCTAssertGreaterThanOrEqual(run.processes().count, 5, "the bus, gpsd, the NMEA replay, lensd and the command")
            kill(run.pid, signal)
            try run.waitForExit()
            XCTAssertEqual(run.status, 128 + signal, run.output)
            try run.assertNothingLeft()
        }
    }
}

/// scripts/try --bin <the debug build> COMMAND, started in a session of its own: `setsid --wait`
/// (a process group leader, as Foundation starts children) forks try, which leads the new
/// session, so try's pid is the session id; setsid passes on its exit status.
private final class Try {
    private let server: ServerProcess
    private(set) var pid: Int32 = 0

    init(_ command: [String], log: URL) throws {
        let script = TestTools.repoRoot.appendingPathComponent("scripts/try").path
        // SIGINT, SIGTERM and SIGHUP at their defaults, as a terminal starts try, whatever the test
        // runner ignores (a script's background job ignores SIGINT, nohup SIGHUP): a shell cannot
        // trap a signal that was ignored when it started, nor its children die of it.
        server = ServerProcess(["/usr/bin/env", "--default-signal=INT,TERM,HUP", "/usr/bin/setsid", "--wait", script, "--bin",
                                TestTools.buildDirectory.path] + command, name: "scripts/try", logPath: log.path)
        try server.start { true }
        let setsid = try XCTUnwrap(server.process?.processIdentifier)
        let deadline = Date().addingTimeInterval(20)
        while pid == 0 {
            pid = Self.children(of: setsid).first ?? 0
            guard pid != 0 || Date() < deadline else { throw TestToolError("setsid started no try") }
            usleep(10_000)
        }
    }

    deinit {
        for process in processes() { kill(process, SIGKILL) }
    }

    var output: String { server.log }
    var status: Int32? { server.process.map { $0.isRunning ? nil : $0.terminationStatus } ?? nil }

    func waitForOutput(_ text: String) throws {
        let deadline = Date().addingTimeInterval(120)
        while !output.contains(text) {
            guard server.isRunning, Date() < deadline else { throw TestToolError("try never printed \(text):\n\(output)") }
            usleep(50_000)
        }
    }

    /// Building nothing (--bin), try is up within seconds; the deadline is for a busy machine.
    func waitForExit(within seconds: TimeInterval = 120) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while server.isRunning {
            guard Date() < deadline else { throw TestToolError("try still runs after \(seconds) s:\n\(output)") }
            usleep(50_000)
        }
    }

    /// The processes of try's session, try itself included while it runs.
    func processes() -> [Int32] { pid == 0 ? [] : Self.processes { $0.session == pid } }

    private static func children(of parent: Int32) -> [Int32] { processes { $0.parent == parent } }

    /// The pids whose /proc/PID/stat fields (after "pid (comm)": state, ppid, pgrp, session) match.
    private static func processes(where matches: ((parent: Int32, session: Int32)) -> Bool) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { process in
            guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 3, let parent = Int32(fields[1]), let session = Int32(fields[3]) else { return false }
            return matches((parent, session))
        }
    }

    /// Every process try started is gone (a replay's last `sleep` may take its 0.2 s), and so is
    /// its directory in /tmp, named by the private bus's address.
    func assertNothingLeft(file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(10)
        while !processes().isEmpty, Date() < deadline { usleep(50_000) }
        XCTAssertEqual(processes(), [], "left running:\n\(processes().map { (try? String(contentsOfFile: "/proc/\($0)/cmdline")) ?? "" })",
                       file: file, line: line)
        let directories = output.matches(of: /lensd-try\.[A-Za-z0-9]{6}/).map { "/tmp/" + $0.output }
        for directory in Set(directories) {
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory), "\(directory) is left", file: file, line: line)
        }
    }
}
