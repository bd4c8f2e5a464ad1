import Foundation
import LensTestSupport
import XCTest

/// Clicks on the preview focus at the frame point under the pointer (fit and fill map
/// differently), checked on the bus; Ctrl+scroll zooms to an absolute factor.
final class FocusAndZoomTests: LensCameraTestCase {
    static let reticleYellow = Screenshot.Pixel(red: 255, green: 217, blue: 51)
    static let zoomIndicator = Screenshot.Rect(x: 720, y: 51, width: 75, height: 40)
    /// Preferences' "Fill the window with the preview" switch (the window at the display's corner).
    static let fillSwitch = (x: 405, y: 100)

    /// The synthetic 640×480 frame in the 790×448 preview at (5, 51): fit shows it 597.3×448 from
    /// x = 101.3, fill 790×592.5 from y = 51 − 72.25.
    func testClickFocusesAtTheFramePointUnderThePointerInFitAndFill() throws {
        try waitForPreview()
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)
        let preview = Layout.preview

        try person.click(x: 60, y: 275)  // fit's black bar: no frame there, no focus
        try person.click(x: 251, y: 275)
        try waitFor("FocusAt") { !monitor.calls("FocusAt").isEmpty }
        try assertFocus(monitor.calls("FocusAt")[0], x: (251 - 101.33) / 597.33, y: 0.5)
        try waitForScreen("reticle-fit") {
            $0.count(near: Self.reticleYellow, tolerance: 30, in: Screenshot.Rect(x: 205, y: 229, width: 92, height: 92)) > 100
        }

        // Preferences (Ctrl+,): fill the window.
        try person.press("ctrl+comma")
        try waitFor("the Preferences window") { try display.windowExists(named: "^Preferences$") }
        try person.click(x: Self.fillSwitch.x, y: Self.fillSwitch.y)
        try person.press("Escape")
        try waitForScreen("fill") { $0.pixel(x: 20, y: 275) != Screenshot.Pixel(red: 0, green: 0, blue: 0) }
        try person.click(x: 200, y: 130)
        try waitFor("the second FocusAt") { monitor.calls("FocusAt").count >= 2 }
        let fillTop = Double(preview.y) - (592.5 - Double(preview.height)) / 2
        try assertFocus(monitor.calls("FocusAt")[1], x: (200.0 - Double(preview.x)) / 790, y: (130 - fillTop) / 592.5)
        try waitForScreen("reticle-fill") {
            $0.count(near: Self.reticleYellow, tolerance: 30, in: Screenshot.Rect(x: 154, y: 84, width: 92, height: 92)) > 100
        }
        XCTAssertEqual(monitor.calls("FocusAt").count, 2, "the click on fit's bar sent nothing")
    }

    func testControlScrollZoomsToStartFactorTimesCumulativeScale() throws {
        let before = try waitForPreview()
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)
        try person.controlScrollUp(x: 400, y: 275, notches: 3)
        // Three notches of 1.25 from 1.0, sent as absolute factors: the last one is 1.25³.
        try waitFor("SetZoomFactor(1.953125)") {
            (monitor.calls("SetZoomFactor").last?.arguments.first as? Double).map { abs($0 - 1.953125) < 1e-6 } ?? false
        }
        for call in monitor.calls("SetZoomFactor") {
            let factor = try XCTUnwrap(call.arguments.first as? Double)
            XCTAssert([1.25, 1.5625, 1.953125].contains { abs($0 - factor) < 1e-6 }, "\(factor) is not start × scale")
        }
        XCTAssertTrue(monitor.calls("Zoom").isEmpty, "never the relative Zoom")
        // The indicator follows ZoomFactorChanged: "1.0×" becomes "2.0×".
        try waitForScreen("zoomed") { $0.differingPixels(from: before, in: Self.zoomIndicator) > 20 }
    }

    private func assertFocus(_ call: BusMonitor.Call, x: Double, y: Double, line: UInt = #line) throws {
        let point = try XCTUnwrap(call.arguments as? [Double], "FocusAt(dd): \(call.arguments)", line: line)
        XCTAssertEqual(point.count, 2, line: line)
        // One pixel of the 597-pixel-wide fit is 0.0017.
        XCTAssertEqual(point[0], x, accuracy: 0.004, line: line)
        XCTAssertEqual(point[1], y, accuracy: 0.004, line: line)
    }
}
