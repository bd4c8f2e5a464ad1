import Foundation
import LensTestSupport
import XCTest

/// A newcomer's walk through README.md's "Using it" (issue 34): every command of its code blocks,
/// read from README.md itself so that README and test cannot drift, run as written by a member
/// of group lens in a home of their own, against what `scripts/try` sets up — lensd with the
/// synthetic camera playing the face scenes, a real gpsd fed by scripts/nmea-replay — reached
/// the way the try shell reaches it, through LENSD_BUS and DBUS_SYSTEM_BUS_ADDRESS, and each must
/// exit 0. The two that run until stopped (`watch`, `preview | ffplay`) are stopped once they
/// showed they work, as Ctrl-C would.
final class ReadmeWalkthroughTests: LensdTestCase {
    private var gpsd: GpsdProcess!
    private var replay: ServerProcess!
    private var frames: URL { tmp.file("frames") }
    private var home: URL { tmp.file("home-newcomer") }

    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--synthetic-frames", frames.path, "--location", "required", "--gpsd", "127.0.0.1:\(gpsd.port)"]
    }

    override func prepare() throws {
        try FaceScenes.writeTrySequence(to: frames, scenes: tmp.file("scenes"))
        let feedPort = try GpsdSockets.freePort()
        gpsd = try GpsdProcess(sourcePort: feedPort, transport: .udp)
        try gpsd.start()
        replay = ServerProcess(["/bin/bash", TestTools.repoRoot.appendingPathComponent("scripts/nmea-replay").path, String(feedPort),
                                TestTools.repoRoot.appendingPathComponent("Tests/fixtures/nmea/hold-3d-4m.nmea").path],
                               name: "nmea-replay", logPath: tmp.file("nmea-replay.log").path)
        try replay.start { true }
        // A newcomer's home: theirs, with the Pictures folder desktops make.
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Pictures"), withIntermediateDirectories: true)
        _ = try runProcess(["chown", "-R", "\(TestUsers.member):", home.path])
    }

    override func tearDown() {
        super.tearDown()
        replay?.stop()
        gpsd?.kill()
    }

    func testEveryCommandOfUsingItWorksAsWritten() throws {
        let blocks = try ReadmeBlocks.codeBlocks(inSection: "Using it")
        XCTAssertEqual(blocks.count, 2, "the lensctl block and the busctl block")
        let lensctlLines = try XCTUnwrap(blocks.first)
        XCTAssertGreaterThanOrEqual(lensctlLines.count, 14, "\(lensctlLines)")
        var name: String?
        for line in lensctlLines {
            var command = line
            if command.contains("NAME") {
                // The reader picks a NAME from `lensctl results`: the newest.
                name = try name ?? newestResult()
                command = command.replacingOccurrences(of: "NAME", with: try XCTUnwrap(name))
            }
            if command.contains("received.jpg") {
                // "any C2PA file" someone sent: here, the photo taken above.
                try run("cp photo.jpg received.jpg")
            }
            switch command {
            case "lensctl watch":
                try runUntilStopped(command, shows: " Status capture enabled; location -33.045600, -70.061200")
            case "lensctl preview | ffplay -f mjpeg -i -":
                // No display here: SDL's dummy video and audio drivers stand in for them.
                try runUntilStopped(command, shows: "Stream #0:0: Video: mjpeg", environment: ["SDL_VIDEODRIVER=dummy", "SDL_AUDIODRIVER=dummy"])
            default:
                try run(command)
            }
        }
        for file in ["photo.jpg", "clip.mp4", "frame.jpg", "selfie.jpg", "Pictures/\(try XCTUnwrap(name)).mp4"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(file).path), "no \(file)")
        }
        try ReferenceValidator.assertTrusted(home.appendingPathComponent("photo.jpg"), anchors: [try client().trustAnchorFile(in: tmp)])
        try ReferenceValidator.assertTrusted(home.appendingPathComponent("selfie.jpg"), anchors: [try client().trustAnchorFile(in: tmp)])

        try walkBusctlBlock(try XCTUnwrap(blocks.last))
    }

    /// The busctl block, line by line: the session path `S` and the NAME BeginCapture answers are
    /// carried from one line to the next as the reader's shell would. ReadResult answers NotFound
    /// until the photo is signed (README says so): that line is repeated until it succeeds.
    private func walkBusctlBlock(_ lines: [String]) throws {
        var session = ""
        var name = ""
        for line in lines {
            let command = line.replacingOccurrences(of: "NAME", with: name)
            if line.hasPrefix("S=$(") {
                session = try run(command + " && printf '%s' \"$S\"").trimmingCharacters(in: .whitespacesAndNewlines)
                XCTAssertTrue(session.hasPrefix("/org/lensd/Lens1/session/"), session)
            } else if line.contains("ReadResult") {
                try runUntilSuccess(command, session: session)
                try ReferenceValidator.assertTrusted(home.appendingPathComponent("busctl.jpg"), anchors: [try client().trustAnchorFile(in: tmp)])
            } else {
                let output = try run(command, session: session)
                if line.hasSuffix("BeginCapture") {
                    name = try XCTUnwrap(output.firstMatch(of: /^s "([0-9a-f-]+)"/).map { String($0.1) }, output)
                }
            }
        }
        XCTAssertFalse(name.isEmpty)
    }

    // MARK: Running as the newcomer

    /// `bash -c LINE` as the member, in their home, with the try shell's variables; must exit 0.
    /// Returns what it printed on stdout.
    @discardableResult
    private func run(_ line: String, session: String = "", file: StaticString = #filePath, lineNumber: UInt = #line) throws -> String {
        let r = try runProcess(try argv(line, session: session))
        let stdout = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, 0, "\(line):\n\(stdout)\(String(decoding: r.stderr, as: UTF8.self))", file: file, line: lineNumber)
        return stdout
    }

    private func runUntilSuccess(_ line: String, session: String) throws {
        let deadline = Date().addingTimeInterval(30)
        while try runProcess(try argv("set -o pipefail; " + line, session: session)).status != 0 {
            guard Date() < deadline else { return XCTFail("\(line) never succeeded") }
            usleep(100_000)
        }
    }

    /// Starts LINE, waits until its output shows `shows`, then sends its process group SIGINT, as
    /// Ctrl-C does, and waits for it to end. (Foundation starts a child as the leader of a process
    /// group of its own; setpriv, env and bash exec one another, so the group is the pipeline's.)
    private func runUntilStopped(_ line: String, shows expected: String, environment: [String] = []) throws {
        let log = tmp.file("until-stopped-\(UUID().uuidString.prefix(8)).log").path
        // SIGINT at its default, as in a terminal, whatever the test runner ignores.
        let process = ServerProcess(["/usr/bin/env", "--default-signal=INT"] + (try argv(line, environment: environment, bounded: false)),
                                    name: line, logPath: log)
        // ffplay prints the stream only once it has probed seconds of it: slow on a loaded machine.
        try process.start(timeout: 120) { process.log.contains(expected) }
        guard let pid = process.process?.processIdentifier else { return XCTFail("\(line) did not start") }
        kill(-pid, SIGINT)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        XCTAssertFalse(process.isRunning, "\(line) did not stop at Ctrl-C")
        process.stop(signal: SIGKILL)
    }

    /// `bounded`: killed after a liveness deadline (a command that waits for ever fails the test, not the run).
    private func argv(_ line: String, session: String = "", environment: [String] = [], bounded: Bool = true) throws -> [String] {
        let bin = URL(fileURLWithPath: try LensctlRunner.binary).deletingLastPathComponent().path
        return TestUsers.asUser(TestUsers.member, ["/usr/bin/env", "-i", "HOME=\(home.path)", "PATH=\(bin):/usr/bin:/bin", "LANG=C.UTF-8",
                                                   "LENSD_BUS=\(bus.address)", "DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)", "S=\(session)"]
                                   + environment + (bounded ? ["/usr/bin/timeout", "300"] : [])
                                   + ["/bin/bash", "-c", "cd \"$HOME\" && " + line])
    }

    private func newestResult() throws -> String {
        let listing = try run("lensctl results --json")
        let results = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        return try XCTUnwrap(results.first?["name"] as? String, listing)
    }
}

/// The shell code blocks of one section of README.md, as lists of commands: comments after `#`
/// dropped, blank lines skipped.
enum ReadmeBlocks {
    static func codeBlocks(inSection heading: String) throws -> [[String]] {
        let readme = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "## \(heading)") else { throw TestToolError("README.md has no section \(heading)") }
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
        var blocks: [[String]] = []
        var current: [String]?
        for line in section {
            if line.hasPrefix("```") {
                if let done = current { blocks.append(done); current = nil } else if line == "```sh" { current = [] }
                continue
            }
            guard current != nil else { continue }
            let command = withoutComment(line).trimmingCharacters(in: .whitespaces)
            if !command.isEmpty { current?.append(command) }
        }
        return blocks
    }

    /// The command before a `#` comment; a `#` inside quotes (awk's `printf "%c"`) is not one.
    private static func withoutComment(_ line: String) -> String {
        var quote: Character?
        for (index, character) in zip(line.indices, line) {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", index == line.startIndex || line[line.index(before: index)] == " " {
                return String(line[..<index])
            }
        }
        return line
    }
}

/// The face scenes scripts/try makes the synthetic camera play: face_scenes.py's frames, each
/// step a run of links to its scene (no face, too far, off centre, too close, too dark, centred).
enum FaceScenes {
    static let trySequence = [("no_face", 30), ("far", 30), ("off_centre", 30), ("close", 30), ("dark", 30), ("centred", 120)]

    static func writeTrySequence(to frames: URL, scenes: URL) throws {
        try FaceScenesOracle.write(to: scenes)
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        var index = 0
        for (scene, count) in trySequence {
            for _ in 0..<count {
                try FileManager.default.createSymbolicLink(atPath: frames.appendingPathComponent(String(format: "%05d.jpg", index)).path,
                                                           withDestinationPath: scenes.appendingPathComponent("\(scene).jpg").path)
                index += 1
            }
        }
        _ = try runProcess(["chmod", "-R", "a+rX", scenes.path, frames.path])
    }
}

/// README for a reader (issue 34): short, "Using it" near the top, the reference in docs/, every
/// document it names there, and no table cell that runs on for a paragraph.
final class ReadmeLayoutTests: XCTestCase {
    func testReadmeIsShortUsingItComesEarlyAndItsDocsExist() throws {
        let readme = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertLessThanOrEqual(lines.count, 350)
        let usingIt = try XCTUnwrap(lines.firstIndex(of: "## Using it"), "no Using it section")
        XCTAssertLessThan(usingIt, 80, "Using it starts at line \(usingIt + 1)")
        XCTAssertLessThan(try XCTUnwrap(lines.firstIndex(of: "## Quick start")), usingIt)
        let named = Set(readme.matches(of: /docs\/[a-z-]+\.md/).map { String($0.output) })
        for document in ["docs/configuration.md", "docs/architecture.md", "docs/benchmarks.md"] {
            XCTAssertTrue(named.contains(document), "README does not point to \(document)")
        }
        for document in named {
            XCTAssertTrue(FileManager.default.fileExists(atPath: TestTools.repoRoot.appendingPathComponent(document).path), "\(document) is missing")
        }
        for line in lines where line.hasPrefix("|") {
            for cell in line.split(separator: "|") { XCTAssertLessThan(cell.count, 300, "a table cell of \(cell.count) characters: \(cell.prefix(60))…") }
        }
    }
}
