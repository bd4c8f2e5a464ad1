import Foundation
import LensTestSupport
import XCTest

/// `lensctl detect-faces` on the face scenario frames: no daemon, the instruction per image in
/// the user's language, JSON valid under its schema, and exit codes for bad input.
final class LensctlDetectFacesTests: XCTestCase {
    private var scenes: TemporaryDirectory!
    private var locale: TemporaryDirectory!

    override func setUpWithError() throws {
        scenes = try temporaryDirectory(prefix: "lensctl-faces")
        try FaceScenesOracle.write(to: scenes.url)
        locale = try temporaryDirectory(prefix: "lensctl-locale")
        let catalog = locale.url.appendingPathComponent("de/LC_MESSAGES")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        let r = try runProcess(["msgfmt", "-o", catalog.appendingPathComponent("lensd.mo").path,
                                TestTools.repoRoot.appendingPathComponent("po/de.po").path])
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
    }

    private func detect(_ arguments: [String], language: String = "C") throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try runProcess([try LensctlRunner.binary, "detect-faces"] + arguments,
                               env: ["LANG": language, "LANGUAGE": "", "LC_ALL": "", "TEXTDOMAINDIR": locale.url.path])
        return (r.status, String(decoding: r.stdout, as: UTF8.self), String(decoding: r.stderr, as: UTF8.self))
    }

    func testEveryImageGetsItsFacesAndInstruction() throws {
        let expected = ["no_face": "face_not_present", "far": "face_too_far", "close": "face_too_close",
                        "off_centre": "face_centering", "dark": "lighting", "overexposed": "lighting",
                        "blurred": "lighting", "centred": "candidate_selection"]
        let files = expected.keys.sorted().map { scenes.file("\($0).jpg").path }
        let r = try detect(files + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try JSONSchemaCheck.assertValid(r.stdout, schema: "detect-faces")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: [[String: Any]]])
        let images = try XCTUnwrap(json["images"])
        XCTAssertEqual(images.compactMap { $0["file"] as? String }, files, "in the order given")
        for image in images {
            let name = URL(fileURLWithPath: image["file"] as? String ?? "").deletingPathExtension().lastPathComponent
            XCTAssertEqual(image["instruction"] as? String, expected[name], name)
            XCTAssertEqual((image["faces"] as? [Any])?.isEmpty, name == "no_face", name)
        }
    }

    func testInstructionsFollowTheLanguage() throws {
        let far = scenes.file("far.jpg").path
        let english = try detect([far])
        XCTAssertEqual(english.status, 0, english.stderr)
        XCTAssertTrue(english.stdout.hasPrefix("\(far): 1 face (640×480) — Move closer\n  face 1: x "), english.stdout)
        let german = try detect([far], language: "de_DE.UTF-8")
        XCTAssertTrue(german.stdout.hasPrefix("\(far): 1 face (640×480) — Kommen Sie näher\n"), german.stdout)
        let json = try detect([far, "--json"], language: "de_DE.UTF-8")
        XCTAssertTrue(json.stdout.contains(#""instruction_text" : "Kommen Sie näher""#), json.stdout)
    }

    func testBadInputExitsWithOneLine() throws {
        let text = scenes.file("not-a-jpeg.jpg")
        try Data("hello".utf8).write(to: text)
        let unreadable = try detect([scenes.file("centred.jpg").path, text.path])
        XCTAssertEqual(unreadable.status, 7)
        XCTAssertTrue(unreadable.stderr.hasPrefix("lensctl: \(text.path): not a readable JPEG ("), unreadable.stderr)
        XCTAssertEqual(unreadable.stdout, "", "nothing printed for a half-read batch")
        let missing = try detect([scenes.file("missing.jpg").path])
        XCTAssertEqual(missing.status, 7)
        let cascade = try detect([scenes.file("centred.jpg").path, "--cascade", text.path])
        XCTAssertEqual(cascade.status, 1)
        XCTAssertEqual(cascade.stderr, "lensctl: face cascade \(text.path): line 1: text outside the root element\n")
        let usage = try detect([])
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(usage.stderr, "lensctl: expected at least one IMAGE\n")
    }
}
