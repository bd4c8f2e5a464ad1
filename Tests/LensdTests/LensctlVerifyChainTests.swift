import Foundation
import LensTestSupport
import XCTest

/// `lensctl verify` on a file other tools wrote, offline: an edit of a signed photo (made by
/// c2pa-python), whose chain --detailed and --json show manifest by manifest.
final class LensctlVerifyChainTests: XCTestCase {
    var tmp: TemporaryDirectory!

    override func tearDown() { tmp = nil }

    func testDetailedAndJSONShowEveryManifest() throws {
        tmp = try TemporaryDirectory()
        let pki = try TestPKI.make(in: tmp.file("pki"), curve: .ed25519)
        let photo = try TestJPEG.make(at: tmp.file("photo.jpg"))
        let parent = try ReferenceSigner.sign(input: photo, output: tmp.file("parent.jpg"), pki: pki)
        let edit = try ReferenceSigner.sign(input: photo, output: tmp.file("edit.jpg"), pki: pki, parent: parent)
        let runner = LensctlRunner(address: "unused: verify runs offline")

        let detailed = try runner.expect(0, ["verify", edit.path, "--trust-anchor", pki.root.path, "--detailed"]).stdout
        XCTAssertTrue(detailed.hasPrefix("\(edit.path): Trusted"), detailed)
        XCTAssertTrue(detailed.contains("active manifest: urn:c2pa:"), detailed)
        XCTAssertTrue(detailed.contains("ingredient manifest: urn:c2pa:"), detailed)
        XCTAssertTrue(detailed.contains("ingredient:      parent (parentOf, manifest urn:c2pa:"), detailed)
        XCTAssertTrue(detailed.contains("action:          c2pa.opened"), detailed)
        XCTAssertTrue(detailed.contains("(ed25519, issued by"), detailed)

        let json = try runner.expect(0, ["verify", edit.path, "--trust-anchor", pki.root.path, "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "verify")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let manifests = try XCTUnwrap(object["manifests"] as? [[String: Any]])
        XCTAssertEqual(manifests.count, 2)
        XCTAssertEqual(manifests[0]["label"] as? String, object["active_manifest"] as? String)
        let ingredient = try XCTUnwrap((manifests[0]["ingredients"] as? [[String: Any]])?.first)
        XCTAssertEqual(ingredient["active_manifest"] as? String, manifests[1]["label"] as? String)
    }
}
