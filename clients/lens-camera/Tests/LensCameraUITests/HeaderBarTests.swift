import Foundation
import LensTestSupport
import XCTest

/// The header bar GNOME apps have: the photo/video switcher in its centre, and a main menu —
/// Preferences, Keyboard Shortcuts, About Lens Camera — that opens what it names, as do Ctrl+,
/// and Ctrl+?.
final class HeaderBarTests: LensCameraTestCase {
    override var appIsAccessible: Bool { true }

    static let headerGrey = Screenshot.Pixel(red: 0xe1, green: 0xde, blue: 0xdb)

    func testTheMainMenuOpensPreferencesShortcutsAndAbout() throws {
        let start = try waitForPreview()
        // Adwaita's header bar, light, above the preview.
        XCTAssertGreaterThan(start.count(near: Self.headerGrey, tolerance: 10, in: Layout.headerBar), 10_000)
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)

        try person.click(x: Layout.mainMenu.x, y: Layout.mainMenu.y)
        try waitForScreen("main-menu") { $0.differingPixels(from: start, in: LanguageTests.mainMenuPopover) > 2000 }
        let items = try app.accessibleTree().filter { $0.role.hasSuffix("menu item") }.map(\.name)
        for expected in ["Preferences", "Keyboard Shortcuts", "About Lens Camera"] {
            XCTAssertTrue(items.contains { $0.hasPrefix(expected) }, "no \(expected) in \(items)")
        }
        // About, the menu's last item.
        try person.click(x: 620, y: 136)
        try waitFor("the About window") { try display.windowExists(named: "^About Lens Camera$") }
        try screenshot("about")
        // Keys go to the window under the pointer (there is no window manager to focus one).
        try person.click(x: 250, y: 300)
        try person.press("Escape")
        try waitFor("the About window to close") { try !display.windowExists(named: "^About Lens Camera$") }

        try person.click(x: 400, y: 275)  // the pointer over the window, whose keys it then gets
        try person.press("ctrl+question")
        try waitFor("the Keyboard Shortcuts window") { try display.windowExists(named: "^Keyboard Shortcuts$") }
        try screenshot("shortcuts")
        let shortcuts = try app.accessibleTree().map(\.name)
        XCTAssertTrue(shortcuts.contains("Take a photo, or start and stop a recording"), "\(shortcuts)")
        try person.click(x: 600, y: 300)  // inside the Shortcuts window, below its header
        try person.press("Escape")
        try waitFor("the Keyboard Shortcuts window to close") { try !display.windowExists(named: "^Keyboard Shortcuts$") }

        try person.click(x: 400, y: 275)
        try person.press("ctrl+comma")
        try waitFor("the Preferences window") { try display.windowExists(named: "^Preferences$") }
        try screenshot("preferences")
        try person.click(x: 200, y: 230)  // inside Preferences, on no control
        try person.press("Escape")
        try waitFor("Preferences to close") { try !display.windowExists(named: "^Preferences$") }

        // The switcher: a click on Video asks lensd for video mode.
        try person.click(x: 439, y: 27)
        try waitFor("video mode") { monitor.propertySets("CameraMode").contains("video") }
    }
}
