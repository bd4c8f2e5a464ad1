import Foundation
import LensTestSupport
import XCTest

/// Clicks on the preview focus at the frame point under the pointer (fit and fill map
/// differently), checked on the bus; Ctrl+scroll zooms to an absolute factor.
final class FocusAndZoomTests: LensCameraTestCase {
    static let reticleYellow = Screenshot.Pixel(red: 255, green: 217, blue: 51)
    static let fitButton = (x: 117, y: 551)
    static let zoomIndicator = Screenshot.Rect(x: 730, y: 0, width: 70, height: 40)

    /// The synthetic 640×480 frame in the 800×420 preview: fit shows it 560×420 from x = 120,
    /// fill 800×600 from y = −90.
    func testClickFocusesAtTheFramePointUnderThePointerInFitAndFill() throws {
        try waitForPreview()
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)

        try person.click(x: 60, y: 210)  // fit's black bar: no frame there, no focus
        try person.click(x: 260, y: 210)
        try waitFor("FocusAt") { !monitor.calls("FocusAt").isEmpty }
        try assertFocus(monitor.calls("FocusAt")[0], x: 0.25, y: 0.5)
        try waitForScreen("reticle-fit") {
            $0.count(near: Self.reticleYellow, tolerance: 30, in: Screenshot.Rect(x: 214, y: 164, width: 92, height: 92)) > 100
        }

        try person.click(x: Self.fitButton.x, y: Self.fitButton.y)
        try waitForScreen("fill") { $0.pixel(x: 20, y: 210) != Screenshot.Pixel(red: 0, green: 0, blue: 0) }
        try person.click(x: 200, y: 105)
        try waitFor("the second FocusAt") { monitor.calls("FocusAt").count >= 2 }
        try assertFocus(monitor.calls("FocusAt")[1], x: 0.25, y: (105.0 + 90) / 600)
        try waitForScreen("reticle-fill") {
            $0.count(near: Self.reticleYellow, tolerance: 30, in: Screenshot.Rect(x: 154, y: 59, width: 92, height: 92)) > 100
        }
        XCTAssertEqual(monitor.calls("FocusAt").count, 2, "the click on fit's bar sent nothing")
    }

    func testControlScrollZoomsToStartFactorTimesCumulativeScale() throws {
        let before = try waitForPreview()
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)
        try person.controlScrollUp(x: 400, y: 200, notches: 3)
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
        // One pixel of the 560-pixel-wide fit is 0.0018.
        XCTAssertEqual(point[0], x, accuracy: 0.004, line: line)
        XCTAssertEqual(point[1], y, accuracy: 0.004, line: line)
    }
}
