import Foundation
import LensFace
import LensTestSupport
import XCTest

/// The instruction texts through the project's gettext catalogs (po/, compiled by msgfmt),
/// chosen the gettext way from LANGUAGE/LANG, overridable per key; hostile .mo files refused.
final class FaceLocalizationTests: XCTestCase {
    private var locale: TemporaryDirectory!

    override func setUpWithError() throws {
        locale = try temporaryDirectory(prefix: "lensface-locale")
        for language in ["de", "fr"] {
            let directory = locale.url.appendingPathComponent("\(language)/LC_MESSAGES")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let r = try runProcess(["msgfmt", "--check", "-o", directory.appendingPathComponent("lensd.mo").path,
                                    TestTools.repoRoot.appendingPathComponent("po/\(language).po").path])
            XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        }
    }

    private func localization(_ environment: [String: String], dictionary: [String: String] = [:],
                              useDictionary: Bool = false) -> FaceLocalization {
        let (localization, problems) = FaceLocalization.forEnvironment(environment, localeDirectories: [locale.url.path],
                                                                       localizationDictionary: dictionary,
                                                                       useLocalizationDictionary: useDictionary)
        XCTAssertEqual(problems, [])
        return localization
    }

    func testEveryInstructionIsTranslated() {
        let german = localization(["LANG": "de_DE.UTF-8"])
        let french = localization(["LANG": "fr_FR.UTF-8"])
        for instruction in FaceInstruction.allCases {
            XCTAssertNotEqual(instruction.localizedText(german), instruction.defaultText, "de \(instruction)")
            XCTAssertNotEqual(instruction.localizedText(french), instruction.defaultText, "fr \(instruction)")
        }
        XCTAssertEqual(FaceInstruction.faceTooFar.localizedText(german), "Kommen Sie näher")
        XCTAssertEqual(FaceInstruction.lighting.localizedText(french), "Tournez-vous vers la lumière")
    }

    func testTheLanguageIsChosenAsGettextChoosesIt() {
        let far = FaceInstruction.faceTooFar
        XCTAssertEqual(far.localizedText(localization(["LANG": "en_US.UTF-8", "LANGUAGE": "xx:fr:de"])), "Rapprochez-vous")
        XCTAssertEqual(far.localizedText(localization(["LANG": "en_US.UTF-8", "LC_ALL": "de_AT.UTF-8@euro"])), "Kommen Sie näher")
        XCTAssertEqual(far.localizedText(localization(["LANG": "C", "LANGUAGE": "de"])), "Move closer", "C ignores LANGUAGE")
        XCTAssertEqual(far.localizedText(localization([:])), "Move closer")
        XCTAssertEqual(far.localizedText(localization(["LANG": "../../etc/de"])), "Move closer", "no path out of the directory")
    }

    /// The face library's Custom Localization, as its documentation writes it (Bundle.main's URL
    /// replaced by the fixture's): an app's German Localizable.strings, read by NSDictionary, with
    /// `useLocalizationDictionary` overrides every instruction whatever the locale; without the
    /// switch the locale's catalog speaks.
    func testTheSeedsGermanLocalizableStringsOverridesTheCatalog() throws {
        let localizableUrl = TestTools.repoRoot.appendingPathComponent("Tests/fixtures/face/de.lproj/Localizable.strings")
        let dictionary = try XCTUnwrap(NSDictionary(contentsOf: localizableUrl) as? [String: String])
        XCTAssertEqual(Set(dictionary.keys), Set(FaceInstruction.allCases.map(\.localizationKey)))
        XCTAssertEqual(FaceInstruction.faceTooFar.localizationKey, "dot.face_lite_auto_capture.instruction.face_too_far")

        var french = localization(["LANG": "fr_FR.UTF-8"], dictionary: dictionary)
        XCTAssertEqual(FaceInstruction.faceTooFar.localizedText(french), "Rapprochez-vous", "the switch is off")
        french.useLocalizationDictionary = true
        for instruction in FaceInstruction.allCases {
            XCTAssertEqual(instruction.localizedText(french), dictionary[instruction.localizationKey], "\(instruction)")
        }
        XCTAssertEqual(FaceInstruction.candidateSelection.localizedText(french), "Nicht bewegen...")
        // A key the app's dictionary lacks falls back to English, not to the ignored locale.
        let partial = localization(["LANG": "fr_FR.UTF-8"], dictionary: ["dot.face_lite_auto_capture.instruction.face_too_far": "Näher heran"],
                                   useDictionary: true)
        XCTAssertEqual(FaceInstruction.faceTooFar.localizedText(partial), "Näher heran")
        XCTAssertEqual(FaceInstruction.faceTooClose.localizedText(partial), "Move back")
        // Bare keys are not the library's: they match nothing.
        let bare = FaceLocalization(localizationDictionary: ["face_too_far": "Näher ran!"], useLocalizationDictionary: true)
        XCTAssertEqual(FaceInstruction.faceTooFar.localizedText(bare), "Move closer")
    }

    /// The catalogs carry the library's keys as their msgctxt.
    func testTheCatalogsAreKeyedByTheLibrarysKeys() throws {
        let german = try MessageCatalog(contentsOf: locale.url.appendingPathComponent("de/LC_MESSAGES/lensd.mo").path)
        XCTAssertEqual(Set(german.translations.keys),
                       Set(FaceInstruction.allCases.map { "\($0.localizationKey)\u{4}\($0.defaultText)" }))
    }

    func testBigEndianCatalogsReadTheSame() throws {
        let big = locale.file("de-big.mo")
        let r = try runProcess(["msgfmt", "--endianness=big", "-o", big.path,
                                TestTools.repoRoot.appendingPathComponent("po/de.po").path])
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        let little = try MessageCatalog(contentsOf: locale.url.appendingPathComponent("de/LC_MESSAGES/lensd.mo").path)
        XCTAssertEqual(try MessageCatalog(contentsOf: big.path).translations, little.translations)
        XCTAssertEqual(little.translations.count, FaceInstruction.allCases.count)
    }

    func testHostileCatalogsAreRefused() throws {
        let good = Array(try Data(contentsOf: locale.url.appendingPathComponent("de/LC_MESSAGES/lensd.mo")))
        XCTAssertEqual(try MessageCatalog(mo: good).translation(of: "Move back", context: FaceInstruction.faceTooClose.localizationKey),
                       "Gehen Sie etwas zurück")
        func patched(_ offset: Int, _ value: UInt32) -> [UInt8] {
            var bytes = good
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
            return bytes
        }
        let originals = Int(good[12]) | Int(good[13]) << 8
        let cases: [([UInt8], String)] = [
            (Array(good.prefix(10)), "too short for a .mo header"),
            (patched(0, 0x1234_5678), "bad magic number"),
            (patched(4, 0x0002_0000), "unsupported .mo revision 2"),
            (patched(8, 0x00FF_FFFF), "at most 100000 are accepted"),
            (patched(8, 50_000), "a string table lies outside the file"),
            (patched(12, 0xFFFF_FFF0), "a string table lies outside the file"),
            (patched(originals + 8, 0x7FFF_FFFF), "string 1 lies outside the file"),
            (patched(originals + 12, UInt32(good.count)), "string 1 lies outside the file"),
        ]
        for (bytes, expected) in cases {
            XCTAssertThrowsError(try MessageCatalog(mo: bytes), expected) {
                XCTAssertTrue("\($0)".contains(expected), "\($0) should say: \(expected)")
            }
        }
        // A bad catalog is skipped and reported; the text falls back to English.
        try Data(patched(0, 0)).write(to: locale.url.appendingPathComponent("fr/LC_MESSAGES/lensd.mo"))
        let (fallback, problems) = FaceLocalization.forEnvironment(["LANG": "fr_FR.UTF-8"], localeDirectories: [locale.url.path])
        XCTAssertEqual(FaceInstruction.faceTooFar.localizedText(fallback), "Move closer")
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems.first?.contains("bad magic number") ?? false, "\(problems)")
    }
}
