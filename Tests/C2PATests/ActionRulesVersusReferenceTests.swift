import C2PA
import Foundation
import LensTestSupport
import XCTest

/// c2pa-rs's rules on actions (assertion.action.*), one file per rule: a c2pa-python file whose
/// action list is rewritten (Tests/oracle/rewrite_manifest.py --actions) and re-signed. lensd's
/// verifier reaches c2pa-python's state and failure codes on each, and on the lawful shapes next
/// to them (no false Invalid).
final class ActionRulesVersusReferenceTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var pki: TestPKI!
    private var original: URL!
    /// An edit: its manifest has a parentOf ingredient, c2pa.ingredient.v3.
    private var edit: URL!

    private static let source = #""digitalSourceType":"http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture""#
    private static let created = #"{"action":"c2pa.created",\#(source)}"#
    private static let ingredient = #"{"url":"self#jumbf=c2pa.assertions/c2pa.ingredient.v3","hash":"00"}"#
    private static let opened = #"{"action":"c2pa.opened","parameters":{"ingredients":[\#(ingredient)]}}"#

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
        let photo = try TestJPEG.make(at: tmp.file("photo.jpg"))
        original = try ReferenceSigner.sign(input: photo, output: tmp.file("original.jpg"), pki: pki)
        edit = try ReferenceSigner.sign(input: photo, output: tmp.file("edit.jpg"), pki: pki, parent: original)
    }

    override func tearDown() { tmp = nil }

    /// `file` re-signed with `actions` (a JSON array); both verifiers must rate it `expect`.
    private func agree(_ name: String, _ file: URL, _ actions: String, expect: String, line: UInt = #line) throws {
        let rewritten = try ManifestRewriter.rewrite(file, into: tmp.file("\(name).jpg"), pki: pki, [], actions: actions)
        try assertVerifiersAgree(on: rewritten, anchors: [pki.root], expect: expect, name, line: line)
    }

    func testTheFirstActionOpensTheStoryOnce() throws {
        try agree("created", original, "[\(Self.created)]", expect: "Trusted")
        try agree("edited first", original, #"[{"action":"c2pa.edited"}]"#, expect: "Invalid")
        try agree("created twice", original, "[\(Self.created),\(Self.created)]", expect: "Invalid")
        try agree("created after opened", edit, "[\(Self.opened),\(Self.created)]", expect: "Invalid")
        try agree("unnamed action", original, #"[{"action":""}]"#, expect: "Invalid")
        try agree("later actions", original, #"[\#(Self.created),{"action":"c2pa.edited"},{"action":"c2pa.cropped"}]"#,
                  expect: "Trusted")
    }

    func testCreatedNamesItsSourceType() throws {
        try agree("created without source type", original, #"[{"action":"c2pa.created"}]"#, expect: "Invalid")
    }

    func testOpenedPlacedAndRemovedNameTheirIngredient() throws {
        try agree("opened", edit, "[\(Self.opened)]", expect: "Trusted")
        try agree("opened, singular", edit, #"[{"action":"c2pa.opened","parameters":{"ingredient":\#(Self.ingredient)}}]"#,
                  expect: "Trusted")
        try agree("opened without parameters", original, #"[{"action":"c2pa.opened"}]"#, expect: "Invalid")
        try agree("opened, empty parameters", original, #"[{"action":"c2pa.opened","parameters":{}}]"#, expect: "Invalid")
        try agree("opened, empty list", original, #"[{"action":"c2pa.opened","parameters":{"ingredients":[]}}]"#, expect: "Invalid")
        try agree("opened, no such ingredient", original, "[\(Self.opened.replacingOccurrences(of: "v3", with: "v3__9"))]",
                  expect: "Invalid")
        // The parent is parentOf, not componentOf.
        try agree("placed the parent", edit, #"[\#(Self.opened),{"action":"c2pa.placed","parameters":{"ingredients":[\#(Self.ingredient)]}}]"#,
                  expect: "Invalid")
        try agree("removed without parameters", original, #"[\#(Self.created),{"action":"c2pa.removed"}]"#, expect: "Invalid")
    }

    func testTranscodedAndRepackagedNameTheirParentIfAny() throws {
        try agree("transcoded", original, #"[\#(Self.created),{"action":"c2pa.transcoded"}]"#, expect: "Trusted")
        try agree("transcoded, no such ingredient", original,
                  #"[\#(Self.created),{"action":"c2pa.transcoded","parameters":{"ingredient":\#(Self.ingredient)}}]"#, expect: "Invalid")
        try agree("repackaged the parent", edit,
                  #"[\#(Self.opened),{"action":"c2pa.repackaged","parameters":{"ingredients":[\#(Self.ingredient)]}}]"#, expect: "Trusted")
    }

    func testTranslatedNamesBothLanguages() throws {
        try agree("translated", original, #"[\#(Self.created),{"action":"c2pa.translated"}]"#, expect: "Invalid")
        try agree("translated with languages", original,
                  #"[\#(Self.created),{"action":"c2pa.translated","parameters":{"sourceLanguage":"en","targetLanguage":"pt"}}]"#,
                  expect: "Trusted")
    }

    func testRedactedNamesARedactedAssertion() throws {
        try agree("redacted", original, #"[\#(Self.created),{"action":"c2pa.redacted"}]"#, expect: "Trusted")
        try agree("redacted, no such manifest", original,
                  #"[\#(Self.created),{"action":"c2pa.redacted","parameters":{"redacted":"self#jumbf=/c2pa/urn:c2pa:none/c2pa.assertions/c2pa.metadata"}}]"#,
                  expect: "Invalid")
        try agree("redacted, no uri", original, #"[\#(Self.created),{"action":"c2pa.redacted","parameters":{}}]"#, expect: "Invalid")
        // In the edit's store, the parent's manifest: an assertion its claim lists, and one it does not.
        let parent = try XCTUnwrap(try ReferenceValidator.verdict(file: original).activeManifest)
        func redacting(_ label: String) -> String {
            #"[\#(Self.opened),{"action":"c2pa.redacted","parameters":{"redacted":"self#jumbf=/c2pa/\#(parent)/c2pa.assertions/\#(label)"}}]"#
        }
        try agree("redacted, listed by the parent", edit, redacting("c2pa.metadata"), expect: "Trusted")
        try agree("redacted, unknown to the parent", edit, redacting("c2pa.nothing"), expect: "Invalid")
    }

    func testAnEmptyActionListStopsTheReference() throws {
        // c2pa-rs raises (no verdict); lensd rates it Invalid with a general error.
        try agree("no actions", original, "[]", expect: "Invalid")
    }
}
