import C2PA
import Foundation
import LensCrypto
import LensTestSupport
import XCTest

/// `lensctl verify` on photos signed with an OCSP response stapled (answered by `openssl ocsp`
/// from the organization CA's index): the text says what the response says, `--detailed` says it
/// for the manifest, `--json` carries it under the schema, and a revoked signer makes the file Invalid.
final class LensctlVerifyOCSPTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var ca: OrganizationCA!
    private var leaf: (key: String, certificate: String) = ("", "")
    private var request: OCSPRequest!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        ca = try OrganizationCA(in: tmp.file("ca"))
        leaf = try ca.issueLeaf(commonName: "cam-07")
        request = try OCSPRequest(certificate: try XCTUnwrap(Certificate.parsePEM(leaf.certificate).first),
                                  issuer: try XCTUnwrap(Certificate.parsePEM(String(contentsOf: ca.root, encoding: .utf8)).first))
    }

    override func tearDown() { tmp = nil }

    func testAGoodResponseIsShown() throws {
        let photo = try signed(stapling: try ca.ocspResponse(to: request.der, validMinutes: 60), "good")
        let text = try verify(photo)
        XCTAssertTrue(text.hasPrefix("\(photo.path): Trusted"), text)
        XCTAssertTrue(text.contains("\n  OCSP:    not revoked as of 20"), text)
        XCTAssertTrue(text.contains("(stapled response)"), text)
        XCTAssertTrue(try verify(photo, "--detailed").contains("\n  OCSP:            not revoked as of 20"))
        let json = try verify(photo, "--json")
        try JSONSchemaCheck.assertValid(json, schema: "verify")
        let ocsp = try XCTUnwrap(signatureInfo(json)["ocsp"] as? [String: Any])
        XCTAssertEqual(ocsp["status"] as? String, "not_revoked")
        XCTAssertEqual(ocsp["source"] as? String, "stapled")
        XCTAssertNotNil(ocsp["next_update"])
    }

    func testARevokedSignerIsShownAndTheFileIsInvalid() throws {
        try ca.revoke(leaf.certificate)
        let photo = try signed(stapling: try ca.ocspResponse(to: request.der), "revoked")
        let text = try verify(photo)
        XCTAssertTrue(text.hasPrefix("\(photo.path): Invalid"), text)
        XCTAssertTrue(text.contains("✗ signingCredential.ocsp.revoked"), text)
        XCTAssertTrue(text.contains("\n  OCSP:    REVOKED at 20"), text)
        let json = try verify(photo, "--json")
        try JSONSchemaCheck.assertValid(json, schema: "verify")
        let ocsp = try XCTUnwrap(signatureInfo(json)["ocsp"] as? [String: Any])
        XCTAssertEqual(ocsp["status"] as? String, "revoked")
        XCTAssertNotNil(ocsp["revoked_at"])
    }

    func testWithoutAResponseNothingIsSaid() throws {
        let photo = try signed(stapling: nil, "plain")
        XCTAssertFalse(try verify(photo).contains("OCSP"))
        XCTAssertNil(signatureInfo(try verify(photo, "--json"))["ocsp"])
    }

    /// A photo signed by lensd's engine with the CA's leaf, the root in the x5chain (it binds the response).
    private func signed(stapling response: [UInt8]?, _ name: String) throws -> URL {
        let base = try KeySigner(keyPEM: leaf.key, chainPEM: leaf.certificate + String(contentsOf: ca.root, encoding: .utf8))
        let signer: any ClaimSigner = response.map { StapledSigner(base, ocspResponses: [$0]) } ?? base
        let writer = ManifestWriter(generator: ClaimGeneratorInfo(name: "lensctl-test", version: "0"),
                                    assertions: [ActionsAssertion(when: Date(), digitalSourceType: .digitalCapture)], signer: signer)
        let output = tmp.file("\(name).jpg")
        try JPEGSigner(writer: writer).sign(inputPath: try TestJPEG.make(at: tmp.file("\(name)-in.jpg")).path, outputPath: output.path)
        return output
    }

    private func verify(_ file: URL, _ options: String...) throws -> String {
        let argv = [try LensctlRunner.binary, "verify", file.path, "--trust-anchor", ca.root.path] + options
        let result = try runProcess(argv, env: ["HOME": tmp.url.path, "LENSCTL_TRUST_ANCHORS": ""])
        return String(decoding: result.stdout, as: UTF8.self)
    }

    private func signatureInfo(_ json: String) -> [String: Any] {
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["signature_info"] as? [String: Any] ?? [:]
    }
}
