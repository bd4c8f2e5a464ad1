import Foundation
import LensTestSupport
import XCTest

/// With location required and gpsd not yet serving, the reasons are shown in plain words — no
/// location source, lensd's own words behind Details — with the location's state beside them,
/// and the capture button is insensitive; once the fix arrives, its accuracy shows and it captures.
final class LocationGateTests: LensCameraTestCase {
    static let reasonsYellow = Screenshot.Pixel(red: 0xff, green: 0xd4, blue: 0x79)
    static let reasonsArea = Screenshot.Rect(x: 5, y: 330, width: 790, height: 169)
    static let insensitiveGrey = Screenshot.Pixel(red: 0x55, green: 0x55, blue: 0x55)
    static let white = Screenshot.Pixel(red: 255, green: 255, blue: 255)

    override var appIsAccessible: Bool { true }

    var feeder: GpsdNMEAFeeder!
    var gpsd: GpsdProcess!

    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "required", "--gpsd", "127.0.0.1:\(gpsd.port)"]
    }

    /// gpsd gets its port now but starts only when the test says: until then lensd has no fix.
    override func prepare() throws {
        feeder = try GpsdNMEAFeeder(log: try GpsdNMEALog(named: "hold-3d-4m.nmea"))
        gpsd = try GpsdProcess(sourcePort: feeder.port)
    }

    override func tearDown() {
        super.tearDown()
        gpsd?.kill()
        feeder?.stop()
    }

    func testReasonsShowInPlainWordsAndCaptureWaitsUntilTheFixArrives() throws {
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)
        let button = (x: Layout.captureButton.x, y: Layout.captureButton.y)
        try waitForScreen("no-fix-reasons") {
            $0.showsCameraPage && $0.count(near: Self.reasonsYellow, tolerance: 40, in: Self.reasonsArea) > 50
                && $0.pixel(x: button.x, y: button.y) == Self.insensitiveGrey
        }
        // What a screen reader says: the reason in words, the location's state, lensd's words
        // kept for Details, the capture button insensitive.
        var tree = try app.accessibleTree()
        let reasons = tree.first { $0.description == "Why capture is disabled" }?.name ?? ""
        XCTAssertEqual(reasons, "No location source")
        XCTAssertEqual(tree.first { $0.description == "Location accuracy" }?.name, "No location fix")
        XCTAssertFalse(tree.contains { $0.name.contains("gpsd at") }, "lensd's words stay behind Details until asked for")
        XCTAssertEqual(tree.first { $0.name == "Take photo" }?.sensitive, false)
        // Details, under the reason, shows them.
        try person.click(x: 362, y: 470)
        try waitFor("lensd's words under Details") {
            tree = try app.accessibleTree()
            return tree.first { $0.description == "lensd's details" }?.name.hasPrefix("gpsd at 127.0.0.1:\(gpsd.port) is not reachable") ?? false
        }
        try screenshot("details")
        try person.click(x: button.x, y: button.y)
        try person.press("space")

        try gpsd.start()
        try waitForScreen("fix-arrived") {
            $0.pixel(x: button.x, y: button.y) == Self.white
                && $0.count(near: Self.reasonsYellow, tolerance: 40, in: Self.reasonsArea) == 0
        }
        XCTAssertTrue(monitor.calls("BeginCapture").isEmpty, "the insensitive button and Space sent nothing")
        try waitFor("the capture button sensitive for a screen reader, the fix's accuracy shown") {
            tree = try app.accessibleTree()
            return tree.first { $0.name == "Take photo" }?.sensitive == true
                && tree.first { $0.description == "Location accuracy" }?.name == "Location ± 4 m"
        }
        try person.click(x: button.x, y: button.y)
        try waitForScreen("captured") { $0.distinctColors(in: Layout.lastResult) > 30 }
        XCTAssertEqual(monitor.calls("BeginCapture").count, 1)
    }
}
