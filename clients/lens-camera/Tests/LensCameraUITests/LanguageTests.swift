import Foundation
import LensTestSupport
import XCTest

/// The app speaks the desktop's language: the same app, quit and started again with
/// LANG=de_DE.UTF-8, names its modes differently ("Foto") and its main menu too (from its
/// catalogs, po/de.po).
final class LanguageTests: LensCameraTestCase {
    static let mainMenuPopover = Screenshot.Rect(x: 500, y: 45, width: 300, height: 130)

    func testTheControlsFollowTheDesktopsLanguage() throws {
        let english = try waitForPreview()
        try person.click(x: Layout.mainMenu.x, y: Layout.mainMenu.y)
        let englishMenu = try waitForScreen("menu") { $0.differingPixels(from: english, in: Self.mainMenuPopover) > 2000 }
        try person.press("Escape")
        app = nil  // quits: its session ends and the camera is free for the next one
        app = try startApp(language: "de_DE.UTF-8")
        let german = try waitForScreen("german") {
            $0.showsCameraPage && $0.distinctColors(in: Layout.preview) > 50
                && $0.differingPixels(from: english, in: Layout.headerBar) > 0
        }
        XCTAssertGreaterThan(german.differingPixels(from: english, in: Layout.headerBar), 100, "other words in the mode switcher")
        try person.click(x: Layout.mainMenu.x, y: Layout.mainMenu.y)
        let germanMenu = try waitForScreen("german-menu") { $0.differingPixels(from: german, in: Self.mainMenuPopover) > 2000 }
        XCTAssertGreaterThan(germanMenu.differingPixels(from: englishMenu, in: Self.mainMenuPopover), 500, "other words in the main menu")
    }
}
