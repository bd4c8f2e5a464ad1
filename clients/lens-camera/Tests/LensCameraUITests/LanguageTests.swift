import Foundation
import LensTestSupport
import XCTest

/// The app speaks the desktop's language: the same app, quit and started again with
/// LANG=de_DE.UTF-8, labels its controls differently (from its catalogs, po/de.po).
final class LanguageTests: LensCameraTestCase {
    func testTheControlsFollowTheDesktopsLanguage() throws {
        let english = try waitForPreview()
        app = nil  // quits: its session ends and the camera is free for the next one
        app = try startApp(language: "de_DE.UTF-8")
        let german = try waitForScreen("german") {
            $0.showsCameraPage && $0.distinctColors(in: Layout.preview) > 50
                && $0.differingPixels(from: english, in: Layout.controlBar) > 0
        }
        XCTAssertGreaterThan(german.differingPixels(from: english, in: Layout.controlBar), 500, "other words on the buttons")
    }
}
