import Foundation
import LensBus
import LensTestSupport
import XCTest

/// The Manager's result calls in process, behind `lensctl results`, `fetch` and `rm` (whose
/// own output stays on the bus, ResultCommandsTests): names that are not UUIDs are
/// InvalidArgument; someone else's result is NotFound, exactly like a missing one; at the
/// per-user cap the oldest goes, logged and told to its owner's sessions.
final class ResultStoreFlowTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var lensd: DaemonHarness!
    private var log: CapturedLog?

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-result-flow")
    }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        defer { log?.restore(printing: (testRun?.totalFailureCount ?? 0) > 0) }
        try lensd?.shutDown()
        lensd = nil
    }

    private func names(_ c: HarnessClient) throws -> [String] {
        try XCTUnwrap(c.callManager("ListResults").first?.arrayValue).compactMap { $0.vardictValue?["name"]?.stringValue }
    }

    func testDeleteResultRefusesBadAndForeignNames() throws {
        lensd = try DaemonHarness()
        let owner = lensd.client()
        let name = try owner.photo(in: try owner.claimedSession()).name
        XCTAssertEqual(try names(owner), [name])
        for bad in ["../../etc/passwd", name.uppercased()] {
            XCTAssertThrowsError(try owner.callManager("DeleteResult", [.string(bad)]), bad) { XCTAssertEqual($0.shortName, "InvalidArgument") }
        }
        // The member's own (empty) store is all they can reach: NotFound, as for a missing name.
        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        XCTAssertThrowsError(try member.callManager("DeleteResult", [.string(name)])) { XCTAssertEqual($0.shortName, "NotFound") }
        XCTAssertThrowsError(try member.callManager("DeleteResult", [.string(UUID().uuidString.lowercased())])) {
            XCTAssertEqual($0.shortName, "NotFound")
        }
        XCTAssertEqual(try names(member), [])
        XCTAssertEqual(try names(owner), [name])
        try owner.callManager("DeleteResult", [.string(name)])
        XCTAssertEqual(try names(owner), [])
        XCTAssertEqual(lensd.stateFiles.photos, [])
    }

    /// At the per-user cap, the oldest result goes — logged, and told to its owner's sessions.
    func testEvictionIsLoggedAndAnnouncedToTheOwner() throws {
        let log = try CapturedLog(in: tmp)
        self.log = log
        let configuration = tmp.file("lensd.conf")
        try "max-results-per-user = 2\n".write(to: configuration, atomically: true, encoding: .utf8)
        lensd = try DaemonHarness(["--config", configuration.path])
        let watcher = lensd.client()
        let watching = try watcher.openSession()
        // Each photo from a connection of its own, as `lensctl capture` takes them.
        let taken = try (0..<3).map { _ in
            let camera = lensd.client()
            defer { camera.disconnect() }
            return try camera.photo(in: try camera.claimedSession()).name
        }
        let evicted = try watcher.waitForSignal("ResultEvicted", path: watching)
        XCTAssertEqual(evicted.arguments.map(\.stringValue), [taken[0], "over max-results-per-user (2 results)"])
        XCTAssertEqual(watcher.signals.filter { $0.member == "ResultEvicted" }.count, 1)
        XCTAssertTrue(log.text.contains("photo \(taken[0]) of root deleted ("), log.text)
        XCTAssertEqual(try names(watcher), [taken[2], taken[1]])
        XCTAssertEqual(try watcher.managerProperty("ResultLimits").vardictValue?["maxCount"]?.uint32Value, 2)
    }
}
