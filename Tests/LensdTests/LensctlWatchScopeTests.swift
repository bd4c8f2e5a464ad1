import Foundation
import LensTestSupport
import XCTest

/// What `lensctl watch` shows of what other commands do (issue 34): lensd sends control changes
/// and photo events only to the session that made them, so a `set flash on` and a capture in
/// another terminal do not show, while news of the user's results (here ResultEvicted) does —
/// and README.md says exactly that, in the words of `watch --help`.
final class LensctlWatchScopeTests: LensdTestCase {
    override var daemonConfiguration: String { "max-results-per-user = 1\n" }

    func testWatchShowsTheUsersResultNewsButNotAnotherTerminalsControls() throws {
        let log = tmp.file("watch.log").path
        let watch = ServerProcess([try LensctlRunner.binary, "watch", "--json", "--count", "1", "--bus", bus.address],
                                  name: "lensctl watch", logPath: log)
        try watch.start { watch.log.contains(#""event":"Status""#) }
        defer { watch.stop() }

        // From other terminals: a control change, then two captures, the second evicting the first.
        XCTAssertEqual(try lensctl.expect(0, ["set", "flash", "on"]).stdout, "flash: on\n")
        let first = try lensctl.expect(0, ["capture", "-o", outbox.path, "--json"]).stdout
        let evicted = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])?["name"] as? String)
        try lensctl.expect(0, ["capture", "-o", outbox.path])

        // lensd sends a session's signals in order: had FlashModeChanged or PhotoSigned reached
        // watch, it would be its one event, before the eviction.
        let deadline = Date().addingTimeInterval(30)
        while watch.isRunning, Date() < deadline { usleep(20_000) }
        XCTAssertFalse(watch.isRunning, "watch saw no event: \(watch.log)")
        let events = watch.log.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(events.map { $0["event"] as? String }, ["Status", "ResultEvicted"], watch.log)
        XCTAssertEqual(events.last?["name"] as? String, evicted)
    }

    func testREADMESaysWhatWatchShowsInTheWordsOfItsHelp() throws {
        let help = try lensctl.expect(0, ["watch", "--help"]).stdout
        let scope = try XCTUnwrap(help.range(of: "lensd sends a watching session").map { String(help[$0.lowerBound...]) }, help)
        let readme = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(Self.words(readme).contains(Self.words(scope)), "README.md does not say what watch --help says:\n\(scope)")
        XCTAssertFalse(Self.words(readme).contains("the gate, location and device events"), "README's old claim")
    }

    /// Text without Markdown's backticks and line breaks.
    private static func words(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
