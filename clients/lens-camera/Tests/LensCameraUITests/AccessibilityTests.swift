import Foundation
import LensTestSupport
import XCTest

/// What a screen reader finds over AT-SPI: every button named for what it does, with a tooltip
/// saying what a click does; the names, the mode switcher's pressed button and sensitivity
/// following the app's state (V switches to video).
final class AccessibilityTests: LensCameraTestCase {
    override var appIsAccessible: Bool { true }

    func testEveryButtonIsNamedAndTheNamesFollowTheState() throws {
        try waitForPreview()
        var tree = try app.accessibleTree()
        // GTK 4.8 publishes every page of the window (the camera's, the viewer's, the one without a
        // session), and no "showing" state.
        let buttons = tree.filter { ["push button", "toggle button"].contains($0.role) }
        XCTAssertGreaterThanOrEqual(buttons.count, 8, "\(tree)")
        for button in buttons {
            XCTAssertFalse(button.name.isEmpty || button.name.hasPrefix("Gtk"), "an unnamed button: \(button)")
        }
        let names = buttons.map(\.name)
        for expected in ["Take photo", "Photo mode (V)", "Video mode (V)", "Flash off (F to change)", "No countdown (T to change)",
                         "Face capture: a selfie when the face is right", "Main Menu"] {
            XCTAssertTrue(names.contains(expected), "no \(expected) in \(names)")
        }
        XCTAssertTrue(names.contains { $0.hasPrefix("Switch to the front camera (C); now: Back camera") }, "\(names)")
        XCTAssertTrue(buttons.first { $0.name == "Take photo" }?.sensitive ?? false)
        XCTAssertEqual(buttons.first { $0.name == "Photo mode (V)" }?.checked, true, "the switcher shows the mode")
        XCTAssertEqual(buttons.first { $0.name == "Video mode (V)" }?.checked, false)
        XCTAssertTrue(tree.contains { $0.name.hasPrefix("Camera preview") }, "the preview is named")
        // Every button has a tooltip (GTK gives it to AT-SPI as the description): what a click does.
        for button in buttons {
            XCTAssertFalse(button.description.isEmpty, "no tooltip: \(button)")
        }
        let tooltips = Dictionary(buttons.map { ($0.name, $0.description) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(tooltips["Switch to the front camera (C); now: Back camera"], "Switch to the front camera (C)")
        XCTAssertEqual(tooltips["Take photo"], "Take photo (Space)")
        XCTAssertEqual(tooltips["Main Menu"], "Main Menu")

        try person.press("v")
        try waitFor("the capture button named for recording") {
            tree = try app.accessibleTree()
            return tree.contains { $0.role == "push button" && $0.name == "Start recording" && $0.sensitive }
        }
        XCTAssertEqual(tree.first { $0.name == "Video mode (V)" }?.checked, true, "\(tree.map(\.name))")
        XCTAssertEqual(tree.first { $0.name == "Photo mode (V)" }?.checked, false)
    }
}
