import Foundation
import LensTestSupport
import XCTest

/// What a screen reader finds over AT-SPI: every button named for what it does, the names and
/// sensitivity following the app's state (V switches the capture button to recording).
final class AccessibilityTests: LensCameraTestCase {
    override var appIsAccessible: Bool { true }

    func testEveryButtonIsNamedAndTheNamesFollowTheState() throws {
        try waitForPreview()
        var tree = try app.accessibleTree()
        // GTK 4.8 publishes both pages of the window (the camera's and the one without), and no
        // "showing" state: the camera page's buttons are all the push buttons there are.
        let buttons = tree.filter { $0.role == "push button" }
        XCTAssertGreaterThanOrEqual(buttons.count, 6, "\(tree)")
        for button in buttons {
            XCTAssertFalse(button.name.isEmpty || button.name.hasPrefix("Gtk"), "an unnamed button: \(button)")
        }
        let names = buttons.map(\.name)
        for expected in ["Take photo", "Mode: photo (V for video)", "Preview scaling", "Flash off (F to change)"] {
            XCTAssertTrue(names.contains(expected), "no \(expected) in \(names)")
        }
        XCTAssertTrue(names.contains { $0.hasPrefix("Switch camera (C); now: Back camera") }, "\(names)")
        XCTAssertTrue(buttons.first { $0.name == "Take photo" }?.sensitive ?? false)
        XCTAssertTrue(tree.contains { $0.name.hasPrefix("Camera preview") }, "the preview is named")

        try person.press("v")
        try waitFor("the capture button named for recording") {
            tree = try app.accessibleTree()
            return tree.contains { $0.role == "push button" && $0.name == "Start recording" && $0.sensitive }
        }
        XCTAssertTrue(tree.contains { $0.name == "Mode: video (V for photo)" }, "\(tree.map(\.name))")
    }
}
