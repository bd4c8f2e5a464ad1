import Foundation
import LensTestSupport
import XCTest

/// The countdown, as GNOME Snapshot offers it: chosen from its menu (3 s), it counts down over
/// the preview and only then is the photo taken — one photo, no sooner.
final class CountdownTests: LensCameraTestCase {
    override var appIsAccessible: Bool { true }

    static let countdownArea = Screenshot.Rect(x: 300, y: 175, width: 200, height: 200)

    func testAPhotoWaitsForItsCountdown() throws {
        let start = try waitForPreview()
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)
        try person.click(x: Layout.countdownButton.x, y: Layout.countdownButton.y)
        try waitFor("the countdown menu") { try app.accessibleTree().contains { $0.role.hasSuffix("menu item") && $0.name == "3 second countdown" } }
        try screenshot("countdown-menu")
        // The menu's items stand below the button: none, 3 s, 10 s.
        try person.click(x: Layout.countdownButton.x, y: Layout.countdownButton.y + 82)
        try waitFor("the countdown set") { try app.accessibleTree().contains { $0.name == "3 second countdown (T to change)" } }

        let pressed = Date()
        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        // The seconds left, large and white in the middle of the preview.
        let white = Screenshot.Pixel(red: 255, green: 255, blue: 255)
        let before = start.count(near: white, tolerance: 2, in: Self.countdownArea)
        try waitForScreen("counting") { $0.count(near: white, tolerance: 2, in: Self.countdownArea) > before + 800 }
        XCTAssertEqual(try app.accessibleTree().first { $0.description == "Countdown" }?.name.isEmpty, false, "the seconds left, said")
        try waitFor("BeginCapture", timeout: 30) { !monitor.calls("BeginCapture").isEmpty }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(pressed), 2.9, "the photo was taken before the countdown ended")
        try waitForScreen("taken") { $0.distinctColors(in: Layout.lastResult) > 30 }
        XCTAssertEqual(monitor.calls("BeginCapture").count, 1)
    }
}
