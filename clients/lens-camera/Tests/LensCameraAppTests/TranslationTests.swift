@testable import LensCameraUI
import Foundation
import LensTestSupport
import XCTest

/// The app's catalogs (po/), compiled by msgfmt, chosen by the environment the gettext way.
final class TranslationTests: XCTestCase {
    private var locale: TemporaryDirectory!
    static let po = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("po")

    override func setUpWithError() throws {
        locale = try temporaryDirectory(prefix: "lens-camera-locale")
        for language in ["de", "fr"] {
            let directory = locale.url.appendingPathComponent("\(language)/LC_MESSAGES")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let r = try runProcess(["msgfmt", "--check", "-o", directory.appendingPathComponent("lens-camera.mo").path,
                                    Self.po.appendingPathComponent("\(language).po").path])
            XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        }
    }

    private func translation(_ environment: [String: String]) -> Translation {
        Translation.forEnvironment(environment, localeDirectories: [locale.url.path])
    }

    func testTextsInTheAskedLanguageAndEnglishOtherwise() {
        XCTAssertEqual(translation(["LANG": "de_DE.UTF-8"]).text("Take photo"), "Foto aufnehmen")
        XCTAssertEqual(translation(["LANG": "en_US.UTF-8", "LANGUAGE": "fr"]).text("Back camera"), "Caméra arrière")
        XCTAssertEqual(translation(["LANG": "C.UTF-8"]).text("Take photo"), "Take photo")
        XCTAssertEqual(translation(["LANG": "de_DE.UTF-8"]).text("a text without translation"), "a text without translation")
        XCTAssertEqual(translation(["LANG": "de_DE.UTF-8"]).text("Only members of group lens may use the camera. An administrator can add you with\n  sudo usermod -aG lens %@\nthen log out and in again."),
                       "Nur Mitglieder der Gruppe lens dürfen die Kamera benutzen. Ein Administrator kann Sie hinzufügen mit\n  sudo usermod -aG lens %@\nMelden Sie sich danach ab und wieder an.")
    }

    /// Every text the template holds is translated, with the same placeholders.
    func testEveryTextIsTranslatedWithItsPlaceholders() throws {
        for language in ["de", "fr"] {
            let catalog = try XCTUnwrap(translation(["LANG": language]).catalog)
            let template = try String(contentsOf: Self.po.appendingPathComponent("lens-camera.pot"), encoding: .utf8)
            let ids = template.components(separatedBy: "\nmsgid \"").dropFirst().compactMap { $0.components(separatedBy: "\"\n").first }
                .filter { !$0.isEmpty && !$0.contains("\\") }
            XCTAssertGreaterThan(ids.count, 70)
            for id in ids {
                let text = try XCTUnwrap(catalog.translation(of: id), "\(language): \(id)")
                for placeholder in ["%@", "%d"] {
                    XCTAssertEqual(text.components(separatedBy: placeholder).count, id.components(separatedBy: placeholder).count,
                                   "\(language): \(id) → \(text)")
                }
            }
        }
    }
}
