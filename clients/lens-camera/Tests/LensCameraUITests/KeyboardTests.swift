import Foundation
import LensTestSupport
import XCTest

/// The keyboard drives every control: F cycles the flash, C switches camera, Space captures
/// (once: the focused button does not press too), V switches to video.
final class KeyboardTests: LensCameraTestCase {
    static let flashButton = Screenshot.Rect(x: 647, y: 527, width: 40, height: 40)

    func testKeysDriveFlashCameraCaptureAndMode() throws {
        let start = try waitForPreview()
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)

        try person.press("f")
        try waitFor("SetFlashMode") { monitor.calls("SetFlashMode").first?.arguments.first as? String == "on" }
        // The flash icon, dimmed while off, is bright once lensd says it is on.
        try waitForScreen("flash-on") { $0.differingPixels(from: start, in: Self.flashButton) > 20 }

        try person.press("c")
        try waitFor("ChangeCamera") { monitor.calls("ChangeCamera").count == 1 }
        let front = try screenshot("front-camera")
        // The new camera's preview runs: it changes (by the liveness deadline).
        try waitForScreen("front-preview-live") { $0.differingPixels(from: front, in: Layout.preview) > 500 }

        try person.press("space")
        try waitForScreen("captured") { $0.distinctColors(in: Layout.lastResult) > 30 }
        XCTAssertEqual(monitor.calls("BeginCapture").count, 1, "one capture per Space")

        try person.press("v")
        try waitForScreen("video-mode") { $0.count(near: CaptureTests.recordRed, tolerance: 12, in: CaptureTests.captureButtonArea) > 400 }
    }

    /// Ctrl+Q ends the app as closing its window does: exit status 0, and GTK tears every widget
    /// down without complaint (the viewer, the menus and the windows they opened included).
    func testControlQQuitsCleanly() throws {
        try waitForPreview()
        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        try waitForScreen("verified") { $0.count(near: CaptureTests.verifiedGreen, tolerance: 12, in: Layout.lastResult) > 40 }
        try person.click(x: Layout.lastResultButton.x, y: Layout.lastResultButton.y)
        try waitForScreen("viewer") { !$0.showsCameraPage }
        try person.press("Escape")
        try waitForScreen("camera-again") { $0.showsCameraPage }
        try person.press("ctrl+comma")
        try waitFor("the Preferences window") { try display.windowExists(named: "^Preferences$") }
        try person.click(x: 200, y: 230)  // keys go to the window under the pointer: Preferences
        try person.press("Escape")
        try person.press("ctrl+q")
        try waitFor("the app to end") { !app.isRunning }
        XCTAssertEqual(app.exitStatus, 0)
        for complaint in ["CRITICAL", "children left", "Gtk-WARNING **: .*finaliz"] {
            XCTAssertNil(app.log.range(of: complaint, options: .regularExpression), "\(complaint) in:\n\(app.log)")
        }
    }
}
