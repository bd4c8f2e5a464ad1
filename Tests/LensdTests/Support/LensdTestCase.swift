import Foundation
import LensBus
import LensTestSupport
import XCTest

/// A private system-like bus with the shipped policy, the shipped users, and lensd running as
/// user lensd on the synthetic camera. Each test gets a fresh bus and daemon.
class LensdTestCase: XCTestCase {
    var tmp: TemporaryDirectory!
    var bus: PrivateSystemBus!
    var daemon: DaemonUnderTest!

    /// Arguments for lensd; tests override for other setups.
    var daemonArguments: [String] { ["--camera", "synthetic", "--location", "optional", "--gpsd", "none"] }

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tmp.url.path)
        // Peers run as other users write their files here.
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o1777])
        bus = try PrivateSystemBus()
        daemon = try DaemonUnderTest(bus: bus, arguments: daemonArguments)
        try daemon.start()
    }

    override func tearDown() {
        if let daemon, testRun?.hasSucceeded == false { print("lensd log:\n\(daemon.log)") }
        daemon = nil
        bus = nil
        tmp = nil
    }

    var outbox: URL { tmp.file("outbox") }

    func client() throws -> TestClient { try TestClient(address: bus.address) }

    func peer(_ steps: [String], as user: String? = nil) throws -> PeerProcess {
        try PeerProcess(address: bus.address, steps: steps, user: user, directory: tmp)
    }

    /// Every file in the state directory whose name marks an unfinished write.
    func temporaryFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: daemon.stateDirectory.path)
        return (enumerator?.allObjects as? [String] ?? []).filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp") }
    }

    /// Stored photos: <state>/results/<uid>/<name>.jpg.
    func storedPhotos() -> [URL] {
        let results = daemon.stateDirectory.appendingPathComponent("results")
        let enumerator = FileManager.default.enumerator(atPath: results.path)
        return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jpg") }
            .map { results.appendingPathComponent($0) }
    }
}
