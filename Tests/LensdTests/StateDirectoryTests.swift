import Foundation
import LensTestSupport
import XCTest

/// Issue 35.6: lensd refuses, at start, a state directory another user could change under it — a
/// symbolic link, one owned by someone else, one writable by group or others — with the path and
/// the reason on stderr (the journal under systemd), and creates nothing in it.
final class StateDirectoryTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var bus: PrivateSystemBus!

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tmp.url.path)
        bus = try PrivateSystemBus()
    }

    override func tearDown() {
        bus = nil
        tmp = nil
    }

    /// Runs lensd as user lensd on `state`; it must exit by itself.
    private func start(on state: URL) throws -> (status: Int32, stderr: String) {
        let config = tmp.file("lensd.conf")
        FileManager.default.createFile(atPath: config.path, contents: Data(), attributes: [.posixPermissions: 0o644])
        let argv = [try DaemonUnderTest.installedBinary("lensd"), "--bus", bus.address, "--config", config.path,
                    "--state-dir", state.path, "--camera", "synthetic", "--location", "optional", "--gpsd", "none"]
        let r = try runProcess(TestUsers.asUser("lensd", argv))
        return (r.status, String(decoding: r.stderr, as: UTF8.self))
    }

    private func directory(_ name: String, mode: Int, owner: String) throws -> URL {
        let url = tmp.file(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        XCTAssertEqual(try runProcess(["chown", "\(owner):\(owner)", url.path]).status, 0)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url
    }

    private func assertRefused(_ state: URL, saying reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (status, stderr) = try start(on: state)
        XCTAssertNotEqual(status, 0, "lensd started on \(state.path)", file: file, line: line)
        XCTAssertTrue(stderr.contains(state.path) && stderr.contains(reason), stderr, file: file, line: line)
        let created = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
        XCTAssertEqual(created, [], "lensd created \(created) in a state directory it refused", file: file, line: line)
    }

    func testAStateDirectoryWritableByOthersIsRefused() throws {
        try assertRefused(try directory("open", mode: 0o777, owner: "lensd"), saying: "writable by others")
        try assertRefused(try directory("group", mode: 0o770, owner: "lensd"), saying: "writable by its group")
    }

    func testAStateDirectoryOfAnotherUserIsRefused() throws {
        try assertRefused(try directory("theirs", mode: 0o700, owner: TestUsers.member), saying: "belongs to uid")
    }

    func testAStateDirectoryThatIsASymbolicLinkIsRefused() throws {
        let target = try directory("target", mode: 0o700, owner: "lensd")
        let link = tmp.file("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let (status, stderr) = try start(on: link)
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(stderr.contains(link.path) && stderr.contains("symbolic link"), stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target.path), [], "nothing lands in the link's target")
    }

    /// The directory lensd makes itself, or one as the packages make it, is used.
    func testItsOwnStateDirectoryIsUsed() throws {
        let state = try directory("own", mode: 0o700, owner: "lensd")
        let daemon = try DaemonUnderTest(bus: bus, arguments: ["--camera", "synthetic", "--location", "optional", "--gpsd", "none"],
                                         stateDirectory: state, configuration: "")
        try daemon.start()
        daemon.stop()
    }
}
