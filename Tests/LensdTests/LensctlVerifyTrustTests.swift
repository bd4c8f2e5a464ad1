import C2PA
import Foundation
import LensCrypto
import LensTestSupport
import XCTest

/// `lensctl verify` with trust lists and c2patool's conventions, offline: a test list naming the
/// signer's CA makes the photo Trusted and the entity and list are named (text and --json); the
/// same CA withdrawn before the signing time does not; lists come from --trust-list,
/// LENSCTL_TRUST_LISTS and ~/.config/lensctl/trust-lists/; `trust-list show` prints one; trust
/// settings come from a c2pa-rs settings file; --crjson, --manifest-json, --certs, --tree, --info
/// and --extract print what c2patool prints.
final class LensctlVerifyTrustTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var pki: TestPKI!
    private var photo: URL!
    private var rootPEM: String!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
        rootPEM = try String(contentsOf: pki.root, encoding: .utf8)
        let writer = ManifestWriter(generator: ClaimGeneratorInfo(name: "lensctl-test", version: "0"),
                                    assertions: [ActionsAssertion(when: Date(), digitalSourceType: .digitalCapture)],
                                    signer: try KeySigner(keyPEM: String(contentsOf: pki.key, encoding: .utf8),
                                                          chainPEM: String(contentsOf: pki.chain, encoding: .utf8)))
        photo = tmp.file("photo.jpg")
        try JPEGSigner(writer: writer).sign(inputPath: try TestJPEG.make(at: tmp.file("in.jpg")).path, outputPath: photo.path)
    }

    override func tearDown() { tmp = nil }

    func testAListedCAIsTrustedAndNamed() throws {
        let list = try write(TestTrustList.lote(certificatePEM: rootPEM), "list.json")
        let text = try verify(0, ["--trust-list", list.path, "--require-trusted"]).stdout
        XCTAssertTrue(text.hasPrefix("\(photo.path): Trusted"), text)
        XCTAssertTrue(text.contains("\n  listed:  Lensd Test CA Operator on Lensd Test Trust List\n"), text)
        let json = try verify(0, ["--trust-list", list.path, "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "verify")
        XCTAssertEqual(try trustList(json), ["list": "Lensd Test Trust List", "entity": "Lensd Test CA Operator", "status": "trusted"])
        // The same list from the environment and from the configuration directory.
        // A list that cannot be read is an error, not a list left out.
        try verify(7, ["--require-trusted"], environment: ["LENSCTL_TRUST_LISTS": "/nonexistent/none.json:\(list.path)"])
        try verify(0, ["--require-trusted"], environment: ["LENSCTL_TRUST_LISTS": list.path])
        try FileManager.default.createDirectory(at: tmp.file("config/lensctl/trust-lists"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: list, to: tmp.file("config/lensctl/trust-lists/c2pa.json"))
        try verify(0, ["--require-trusted"], environment: ["XDG_CONFIG_HOME": tmp.file("config").path])
        // Without any list the photo is Valid only.
        try verify(1, ["--require-trusted"])
    }

    func testACAWithdrawnBeforeTheSigningTimeIsNotTrusted() throws {
        let list = try write(TestTrustList.lote(certificatePEM: rootPEM, statuses: [
            .init(trusted: true, since: Date(timeIntervalSinceNow: -30 * 86_400)), .init(trusted: false, since: Date(timeIntervalSinceNow: -86_400)),
        ]), "withdrawn.json")
        let text = try verify(1, ["--trust-list", list.path, "--require-trusted"]).stdout
        XCTAssertTrue(text.hasPrefix("\(photo.path): Valid"), text)
        XCTAssertTrue(text.contains("listed:  Lensd Test CA Operator on Lensd Test Trust List: UNTRUSTED since 20"), text)
        let json = try verify(0, ["--trust-list", list.path, "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "verify")
        XCTAssertEqual(try trustList(json)["status"], "untrusted")
    }

    func testAStaleListIsUsedWithAWarning() throws {
        let list = try write(TestTrustList.lote(certificatePEM: rootPEM, nextUpdate: Date(timeIntervalSinceNow: -3600)), "stale.json")
        let result = try verify(0, ["--trust-list", list.path, "--require-trusted"])
        XCTAssertTrue(result.stderr.contains("warning: trust list Lensd Test Trust List (\(list.path)) is past its NextUpdate"), result.stderr)
        let shown = try LensctlRunner(address: "unused").expect(0, ["trust-list", "show", list.path])
        XCTAssertTrue(shown.stdout.contains("PAST: get a current copy"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("\n  Lensd Test CA Operator\n    Lensd Test CA Operator Issuing CA: trusted since 20"), shown.stdout)
        let json = try LensctlRunner(address: "unused").expect(0, ["trust-list", "show", list.path, "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "trust-list")
        let bad = try write("{\"LoTE\": {}}", "bad.json")
        let refused = try LensctlRunner(address: "unused").expect(7, ["trust-list", "show", bad.path])
        XCTAssertTrue(refused.stderr.contains("ListAndSchemeInformation"), refused.stderr)
        try verify(7, ["--trust-list", bad.path])
    }

    /// c2pa-rs trust settings: anchors (a leaf given as one trusts nothing), an allowed signer, EKUs.
    func testTrustConfigFromASettingsFile() throws {
        let leafPEM = try String(contentsOf: pki.leaf, encoding: .utf8)
        func settings(_ name: String, _ key: String, _ value: String) throws -> URL {
            try write("# c2pa-rs settings\nversion = 1\n[verify]\nverify_trust = true\n[trust]\n\(key) = \"\"\"\n\(value)\"\"\"\n", name)
        }
        try verify(0, ["--trust-config", try settings("anchors.toml", "trust_anchors", rootPEM).path, "--require-trusted"])
        try verify(1, ["--trust-config", try settings("leaf.toml", "trust_anchors", leafPEM).path, "--require-trusted"])
        try verify(0, ["--trust-config", try settings("allowed.toml", "allowed_list", leafPEM).path, "--require-trusted"])
        let json = try write(#"{"trust": {"trust_anchors": "\#(rootPEM.replacingOccurrences(of: "\n", with: "\\\\n"))"}}"#, "settings.json")
        try verify(0, ["--trust-config", json.path, "--require-trusted"])
        try verify(7, ["--trust-config", try write("[trust]\ntrust_anchors = \"unterminated\n", "broken.toml").path])
    }

    func testC2PAToolViews() throws {
        let crjson = try JSONSerialization.jsonObject(with: Data(try verify(0, ["--crjson"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual((crjson?["manifests"] as? [[String: Any]])?.count, 1)
        let store = try JSONSerialization.jsonObject(with: Data(try verify(0, ["--manifest-json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(store?["validation_state"] as? String, "Valid")
        let certificates = try verify(0, ["--certs"]).stdout
        XCTAssertEqual(try Certificate.parsePEM(certificates), try Certificate.parsePEM(String(contentsOf: pki.chain, encoding: .utf8)))
        let tree = try verify(0, ["--tree"]).stdout
        XCTAssertTrue(tree.hasPrefix("Tree View:\n Asset:photo.jpg, Manifest:urn:c2pa:"), tree)
        XCTAssertTrue(tree.contains(" └── Assertion:c2pa.actions.v2"), tree)
        let info = try verify(0, ["--info"]).stdout
        XCTAssertTrue(info.contains("Information for photo.jpg\nManifest store size = "), info)
        XCTAssertTrue(info.hasSuffix("Validation issues:\n   signingCredential.untrusted\nOne manifest\n"), info)
        try verify(0, ["--extract", tmp.file("out").path])
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: tmp.file("out/manifest_store.json"))))
        XCTAssertEqual(try ManifestStore(jumbf: Array(Data(contentsOf: tmp.file("out/manifest_data.c2pa")))).manifests.count, 1)
        let both = try verify(2, ["--crjson", "--tree"])
        XCTAssertTrue(both.stderr.contains("cannot be combined"), both.stderr)
        try verify(2, ["--certs", "--json"])
    }

    // MARK: Helpers

    private func write(_ text: String, _ name: String) throws -> URL {
        try text.write(to: tmp.file(name), atomically: true, encoding: .utf8)
        return tmp.file(name)
    }

    /// `lensctl verify PHOTO OPTIONS` with no anchors or lists but those given (HOME is the test's).
    @discardableResult
    private func verify(_ status: Int32, _ options: [String], environment: [String: String] = [:],
                        line: UInt = #line) throws -> LensctlRunner.Result {
        let env = ["HOME": tmp.url.path, "XDG_CONFIG_HOME": "", "LENSCTL_TRUST_ANCHORS": "", "LENSCTL_TRUST_LISTS": ""]
            .merging(environment) { $1 }
        let r = try runProcess([try LensctlRunner.binary, "verify", photo.path] + options, env: env)
        let result = LensctlRunner.Result(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self),
                                          stderr: String(decoding: r.stderr, as: UTF8.self))
        XCTAssertEqual(result.status, status, "\(options): \(result.stderr)", line: line)
        return result
    }

    private func trustList(_ json: String) throws -> [String: String] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try XCTUnwrap(object["trust_list"] as? [String: String])
    }
}
