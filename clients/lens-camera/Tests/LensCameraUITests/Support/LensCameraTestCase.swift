import Foundation
import LensClient
import LensTestSupport
import XCTest

/// lens-camera on a virtual display, against lensd (the synthetic camera, as user lensd) on a
/// private system bus with the shipped policy, run as a user in group lens; each test gets its
/// own bus, lensd, display and app. Screenshots of each step go to
/// clients/lens-camera/.build/screenshots/<test>/ (docs/screenshots holds a chosen set).
class LensCameraTestCase: XCTestCase {
    /// Where things are on the 800×600 window at the display's top-left corner (no window
    /// manager: GTK draws the frame, 5 px a side, and the header bar): the app's fixed bar
    /// heights (Style) make the layout the same on every run.
    enum Layout {
        static let window = Screenshot.Rect(x: 0, y: 0, width: 800, height: 600)
        static let headerBar = Screenshot.Rect(x: 5, y: 4, width: 790, height: 46)
        static let preview = Screenshot.Rect(x: 5, y: 51, width: 790, height: 448)
        static let controlBar = Screenshot.Rect(x: 5, y: 499, width: 790, height: 96)
        /// Where the page that stands in for the camera's says what is wrong (its title and advice).
        static let unavailableMessage = Screenshot.Rect(x: 100, y: 200, width: 600, height: 200)
        /// The newest result's round thumbnail and its badge, at the start of the control bar.
        static let lastResult = Screenshot.Rect(x: 17, y: 515, width: 72, height: 72)
        static let captureButton = (x: 400, y: 547)
        static let lastResultButton = (x: 51, y: 547)
        static let countdownButton = (x: 621, y: 547)
        static let flashButton = (x: 667, y: 547)
        static let faceButton = (x: 713, y: 547)
        static let cameraButton = (x: 759, y: 547)
        static let mainMenu = (x: 645, y: 27)
        /// Right of the window: nothing of the app's may be drawn there.
        static let outsideWindow = Screenshot.Rect(x: 801, y: 0, width: 223, height: 768)
    }
    static let liveness: TimeInterval = 30
    /// clients/lens-camera/.build/screenshots
    static let screenshotRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/screenshots")

    var tmp: TemporaryDirectory!
    var bus: PrivateSystemBus!
    var daemon: DaemonUnderTest!
    var display: XvfbDisplay!
    var app: AppUnderTest!
    var person: Person!
    private var shots = 0

    /// lensd's arguments; tests override for other setups.
    var daemonArguments: [String] { ["--camera", "synthetic", "--location", "optional", "--gpsd", "none"] }
    /// Who runs the app, in which language.
    var appUser: String { TestUsers.member }
    var appLanguage: String { "C.UTF-8" }
    /// Whether the app publishes its accessibility tree (a session bus of its own).
    var appIsAccessible: Bool { false }
    /// Runs before lensd starts (e.g. to prepare gpsd).
    func prepare() throws {}
    /// Runs once lensd is up, before the app starts.
    func beforeApp() throws {}

    override func setUpWithError() throws {
        if ProcessInfo.processInfo.environment["LENSD_TEST_BIN_DIR"] == nil {
            // The root package's debug build (scripts/test builds it before this package's tests).
            setenv("LENSD_TEST_BIN_DIR", TestTools.repoRoot.appendingPathComponent(".build/debug").path, 1)
        }
        try? FileManager.default.removeItem(at: screenshotFolder)
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lens-camera-test")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tmp.url.path)
        bus = try PrivateSystemBus()
        try prepare()
        daemon = try DaemonUnderTest(bus: bus, arguments: daemonArguments, stateDirectory: tmp.file("state"))
        try daemon.start()
        try beforeApp()
        display = try XvfbDisplay(logDirectory: tmp)
        person = Person(display: display.name)
        app = try startApp(language: appLanguage)
    }

    override func tearDown() {
        if (testRun?.totalFailureCount ?? 0) > 0 {
            print("lens-camera log:\n\(app?.log ?? "")\nlensd log (tail):\n\(daemon?.log.suffix(4000) ?? "")")
        }
        app = nil
        display = nil
        daemon = nil
        bus = nil
        tmp = nil
    }

    func startApp(language: String) throws -> AppUnderTest {
        try AppUnderTest(display: display.name, busAddress: bus.address, user: appUser, language: language,
                         accessible: appIsAccessible, directory: tmp)
    }

    // MARK: Seeing

    /// This test's screenshots. XCTest names a test "-[Class test]" on Darwin and "Class.test" here.
    private var screenshotFolder: URL {
        Self.screenshotRoot.appendingPathComponent(name.split(whereSeparator: { " .[]".contains($0) }).last.map(String.init) ?? "test")
    }

    /// A screenshot kept as `<n>-<step>.png` under this test's screenshot folder.
    @discardableResult
    func screenshot(_ step: String) throws -> Screenshot {
        shots += 1
        return try Screenshot.take(display: display.name, to: screenshotFolder.appendingPathComponent(String(format: "%02d-%@.png", shots, step)))
    }

    /// Screenshots until `condition` holds on one (kept as `step`); fails after the liveness deadline.
    @discardableResult
    func waitForScreen(_ step: String, timeout: TimeInterval = liveness, _ condition: (Screenshot) -> Bool) throws -> Screenshot {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let shot = try screenshot(step)
            if condition(shot) { return shot }
            guard Date() < deadline else { throw TestToolError("the screen never showed \(step) (last: \(shot.file.path))") }
            try? FileManager.default.removeItem(at: shot.file)
            shots -= 1
            usleep(100_000)
        }
    }

    /// Polls a condition that is not on the screen (a file, the bus) until the liveness deadline.
    func waitFor(_ what: String, timeout: TimeInterval = liveness, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { throw TestToolError("no \(what) within \(timeout) s") }
            usleep(100_000)
        }
    }

    /// The camera page with a live picture: the preview area holds an image, not a plain page.
    @discardableResult
    func waitForPreview() throws -> Screenshot {
        try waitForScreen("preview") { $0.showsCameraPage && $0.distinctColors(in: Layout.preview) > 50 }
    }

    /// The page that says why there is no camera, once its words are drawn (a window just mapped
    /// is neither page yet).
    @discardableResult
    func waitForUnavailablePage(_ step: String) throws -> Screenshot {
        try waitForScreen(step) { !$0.showsCameraPage && $0.distinctColors(in: Layout.unavailableMessage) > 10 }
    }

    // MARK: Checking results

    /// lensd's trust anchor, written where the reference validator reads it.
    func trustAnchorFile() throws -> URL {
        let camera = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "test"))
        defer { camera.close() }
        let file = tmp.file("trust-anchor.pem")
        try camera.trustAnchor().write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The files the app kept in ~/<Pictures|Videos>/Lens Camera.
    func keptFiles(_ folder: String, extension pathExtension: String) -> [URL] {
        let directory = app.home.appendingPathComponent("\(folder)/Lens Camera")
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == pathExtension }
    }
}
