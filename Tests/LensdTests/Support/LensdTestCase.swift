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
    /// lensd.conf's content.
    var daemonConfiguration: String { "" }
    /// lensd's environment beyond the test's own (e.g. SOFTHSM2_CONF).
    var daemonEnvironment: [String: String] { [:] }
    /// The bus: the shipped policy on a stock system policy, unless a test says otherwise.
    func makeBus() throws -> PrivateSystemBus { try PrivateSystemBus() }
    /// Runs before lensd starts (e.g. to start gpsd).
    func prepare() throws {}
    /// Whether setUp starts lensd. A class whose tests mostly choose lensd's arguments first says
    /// no, and each of its tests calls startDaemon: under emulation a start saved is seconds.
    class var startsDaemonInSetUp: Bool { true }

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tmp.url.path)
        // Peers run as other users write their files here.
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o1777])
        bus = try makeBus()
        try prepare()
        if Self.startsDaemonInSetUp { try startDaemon() }
    }

    override func tearDown() {
        if let daemon, (testRun?.totalFailureCount ?? 0) > 0 { print("lensd log:\n\(daemon.log)") }
        daemon = nil
        bus = nil
        tmp = nil
    }

    var outbox: URL { tmp.file("outbox") }

    func client() throws -> TestClient { try TestClient(address: bus.address) }

    /// Starts lensd on the test's state directory, with `arguments` or else daemonArguments.
    func startDaemon(arguments: [String]? = nil) throws {
        daemon = try DaemonUnderTest(bus: bus, arguments: arguments ?? daemonArguments, stateDirectory: tmp.file("state"),
                                     configuration: daemonConfiguration)
        daemon.environment = daemonEnvironment
        try daemon.start()
    }

    /// Restarts lensd on the same state directory (after `stop` with any signal).
    func restartDaemon(arguments: [String]? = nil) throws {
        daemon.stop()
        try startDaemon(arguments: arguments)
    }

    /// Open file descriptors and resident memory of lensd (all of it, and its anonymous part), from /proc.
    func daemonResources() throws -> (fds: Int, rssKiB: Int, anonKiB: Int) {
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").count
        let status = try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8)
        func kiB(_ field: String) -> Int {
            status.split(separator: "\n").first { $0.hasPrefix("\(field):") }?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? -1
        }
        return (fds, kiB("VmRSS"), kiB("RssAnon"))
    }

    /// Whether lensd has a library mapped whose file name starts with `name` (e.g. "libcurl.so").
    func daemonHasLoaded(_ name: String) throws -> Bool {
        // Read to the end: /proc files report a size of 0.
        let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(daemon.pid)/maps"))
        defer { try? maps.close() }
        let text = String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").contains { $0.split(separator: "/").last?.hasPrefix(name) ?? false }
    }

    func peer(_ steps: [String], as user: String? = nil) throws -> PeerProcess {
        try PeerProcess(address: bus.address, steps: steps, user: user, directory: tmp)
    }

    /// Every file in the state directory whose name marks an unfinished write.
    func temporaryFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: daemon.stateDirectory.path)
        return (enumerator?.allObjects as? [String] ?? []).filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp") }
    }

    /// The journal of the recording under way: <state>/results/<uid>/.recording-<name>.mp4.
    func waitForJournal() throws -> URL {
        let results = daemon.stateDirectory.appendingPathComponent("results")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let all = (FileManager.default.enumerator(atPath: results.path)?.allObjects as? [String] ?? []).map(results.appendingPathComponent)
            if let journal = all.first(where: { $0.lastPathComponent.hasPrefix(".recording-") && $0.pathExtension == "mp4" }) { return journal }
            usleep(50_000)
        }
        throw TestToolError("no recording started:\n\(daemon.log)")
    }

    /// Stored photos: <state>/results/<uid>/<name>.jpg.
    func storedPhotos() -> [URL] { storedResults(withExtension: "jpg") }

    /// Stored videos: <state>/results/<uid>/<name>.mp4 (not the hidden ones still recording).
    func storedVideos() -> [URL] { storedResults(withExtension: "mp4") }

    private func storedResults(withExtension pathExtension: String) -> [URL] {
        let results = daemon.stateDirectory.appendingPathComponent("results")
        let enumerator = FileManager.default.enumerator(atPath: results.path)
        return (enumerator?.allObjects as? [String] ?? []).map { results.appendingPathComponent($0) }
            .filter { $0.pathExtension == pathExtension && !$0.lastPathComponent.hasPrefix(".") }
    }
}
