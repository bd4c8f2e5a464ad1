import Foundation
import LensTestSupport
import XCTest

/// The keyboard drives every control: F cycles the flash, C switches camera, Space captures
/// (once: the focused button does not press too), V switches to video.
final class KeyboardTests: LensCameraTestCase {
    static let flashButton = Screenshot.Rect(x: 571, y: 536, width: 88, height: 32)
    static let cameraButton = Screenshot.Rect(x: 667, y: 536, width: 117, height: 32)

    func testKeysDriveFlashCameraCaptureAndMode() throws {
        let start = try waitForPreview()
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)

        try person.press("f")
        try waitFor("SetFlashMode") { monitor.calls("SetFlashMode").first?.arguments.first as? String == "on" }
        try waitForScreen("flash-on") { $0.differingPixels(from: start, in: Self.flashButton) > 20 }

        try person.press("c")
        try waitFor("ChangeCamera") { monitor.calls("ChangeCamera").count == 1 }
        let front = try waitForScreen("front-camera") { $0.differingPixels(from: start, in: Self.cameraButton) > 20 }
        // The new camera's preview runs: it changes (by the liveness deadline).
        try waitForScreen("front-preview-live") { $0.differingPixels(from: front, in: Layout.preview) > 500 }

        try person.press("space")
        try waitForScreen("captured") { $0.distinctColors(in: Layout.firstThumbnail) > 30 }
        XCTAssertEqual(monitor.calls("BeginCapture").count, 1, "one capture per Space")

        try person.press("v")
        try waitForScreen("video-mode") {
            $0.count(near: CaptureTests.recordRed, tolerance: 12, in: Screenshot.Rect(x: 380, y: 532, width: 40, height: 40)) > 400
        }
    }

    /// Ctrl+Q ends the app as closing its window does: exit status 0, and GTK tears every widget
    /// down without complaint (a result's details popover included).
    func testControlQQuitsCleanly() throws {
        try waitForPreview()
        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        try waitForScreen("verified") { $0.count(near: CaptureTests.verifiedGreen, tolerance: 12, in: Layout.firstThumbnail) > 40 }
        try person.click(x: Layout.firstThumbnail.x + 50, y: Layout.firstThumbnail.y + 38)
        try waitForScreen("details") { $0.count(near: CaptureTests.popoverBackground, tolerance: 4, in: CaptureTests.popoverArea) > 2000 }
        try person.press("Escape")
        try person.press("ctrl+q")
        try waitFor("the app to end") { !app.isRunning }
        XCTAssertEqual(app.exitStatus, 0)
        for complaint in ["CRITICAL", "children left", "Gtk-WARNING **: .*finaliz"] {
            XCTAssertNil(app.log.range(of: complaint, options: .regularExpression), "\(complaint) in:\n\(app.log)")
        }
    }
}
