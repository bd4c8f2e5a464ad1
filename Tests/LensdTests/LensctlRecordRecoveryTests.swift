import Foundation
import LensTestSupport
import XCTest

/// `lensctl record` when lensd dies mid-recording: it names the video and how to get it; after
/// lensd's restart, `results` lists it as recovered and `fetch` writes it, trusted by c2pa-rs.
final class LensctlRecordRecoveryTests: LensdTestCase {
    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "optional", "--gpsd", "none", "--synthetic-size", "320x240"]
    }

    func testAVideoCutByLensdsDeathIsNamedAndFetchedAfterTheRestart() throws {
        let stderr = tmp.file("record.stderr")
        XCTAssertTrue(FileManager.default.createFile(atPath: stderr.path, contents: nil))
        let record = Process()
        record.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        record.arguments = TestUsers.asUser(TestUsers.member, [try LensctlRunner.binary, "record", "-o",
                                                               outbox.appendingPathComponent("crash.mp4").path, "--bus", bus.address])
        record.standardOutput = FileHandle.nullDevice
        record.standardError = try FileHandle(forWritingTo: stderr)
        try record.run()
        // What the recovery keeps is on disk: a complete fragment (one a second).
        let journal = try waitForJournalFragments(1)
        daemon.stop(signal: SIGKILL)
        record.waitUntilExit()
        let name = String(journal.lastPathComponent.dropFirst(".recording-".count).prefix(36))
        let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        XCTAssertEqual(record.terminationStatus, 3, said)
        XCTAssertTrue(said.contains("lensd recovers video \(name) when it starts again: then lensctl fetch \(name) writes it"), said)
        XCTAssertEqual(said.split(separator: "\n").count, 1, said)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outbox.appendingPathComponent("crash.mp4").path))

        try restartDaemon()
        let deadline = Date().addingTimeInterval(60)
        var listed: [String: Any]?
        while listed == nil, Date() < deadline {
            let out = try lensctl.expect(0, ["results", "--json"], as: TestUsers.member).stdout
            let all = (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])?["results"] as? [[String: Any]]
            listed = all?.first { $0["name"] as? String == name }
            if listed == nil { usleep(200_000) }
        }
        let entry = try XCTUnwrap(listed, "the recovered video is not listed:\n\(daemon.log)")
        XCTAssertEqual(entry["recovered"] as? Bool, true)
        XCTAssertEqual(entry["signed"] as? Bool, true)
        XCTAssertTrue(try lensctl.expect(0, ["results"], as: TestUsers.member).stdout.contains("\(name)  video  "))
        let fetched = outbox.appendingPathComponent("recovered.mp4")
        let r = try lensctl.expect(0, ["fetch", name, "-o", fetched.path, "--json"], as: TestUsers.member)
        XCTAssertTrue(r.stdout.contains("\"recovered\" : true"), r.stdout)
        let anchor = tmp.file("anchor.pem")
        try lensctl.expect(0, ["trust-anchor"]).stdout.write(to: anchor, atomically: true, encoding: .utf8)
        try ReferenceValidator.assertTrusted(fetched, anchors: [anchor])
        // A recovered video meets the Conformance Program's 2.4 rubric like a finished one (synthetic camera: no capture claim).
        try ConformanceRubric.assertConformant(fetched, anchors: [anchor], capturedMedia: false)
        XCTAssertEqual(try FFprobeReport.read(fetched).decodeErrors, "")

        // Recovered stays recovered across another restart (the note beside the file).
        try restartDaemon()
        XCTAssertTrue(try lensctl.expect(0, ["results"], as: TestUsers.member).stdout.contains("\(name)  video  "))
        XCTAssertTrue(try lensctl.expect(0, ["results"], as: TestUsers.member).stdout.contains("recovered, signed"))
    }

    /// On a terminal, record names its video as soon as it starts.
    func testRecordNamesItsVideoWhenItStartsOnATerminal() throws {
        let clip = outbox.appendingPathComponent("tty.mp4")
        let command = TestUsers.asUser(TestUsers.member, [try LensctlRunner.binary, "record", "--duration", "1", "-o", clip.path,
                                                          "--bus", bus.address]).map { "'\($0)'" }.joined(separator: " ")
        // script(1) gives lensctl a pseudo-terminal and copies what it writes there.
        let r = try runProcess(["script", "-qec", command, "/dev/null"])
        let shown = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, 0, shown)
        let name = try XCTUnwrap(shown.firstMatch(of: /recording video ([0-9a-f-]{36}) \(Ctrl-C stops it\)/)?.1, shown)
        XCTAssertTrue(shown.contains("\(name)  "), "the result line names the same video: \(shown)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: clip.path))
    }
}
