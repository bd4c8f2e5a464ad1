import C2PA
import Foundation
import LensCrypto
import LensTestSupport
import XCTest

/// Files lensd signs with an OCSP response stapled (StapledSigner), answered by `openssl ocsp`
/// from a real CA index: lensd's verifier reaches c2pa-rs's verdict on each, the OCSP statuses
/// included, and reports what the response says.
final class StapledOCSPVersusReferenceTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var ca: OrganizationCA!
    private var pki: TestPKI!
    private var leafPEM = ""
    private var request: OCSPRequest!
    private let ocspCodes: Set<String> = [StatusCode.ocspNotRevoked, StatusCode.ocspRevoked, StatusCode.ocspUnknown,
                                          StatusCode.ocspSkipped]

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        ca = try OrganizationCA(in: tmp.file("ca"))
        let leaf = try ca.issueLeaf(commonName: "cam-07")
        leafPEM = leaf.certificate
        let rootPEM = try String(contentsOf: ca.root, encoding: .utf8)
        pki = try writePKI(key: leaf.key, chain: leaf.certificate + rootPEM, named: "pki")
        let certificate = try XCTUnwrap(Certificate.parsePEM(leafPEM).first)
        let root = try XCTUnwrap(Certificate.parsePEM(rootPEM).first)
        request = try OCSPRequest(certificate: certificate, issuer: root)
    }

    override func tearDown() { tmp = nil }

    /// A TestPKI over the organization's CA. The x5chain normally carries the issuer (here the
    /// root): c2pa-rs binds a stapled response to the signer through it.
    private func writePKI(key: String, chain: String, named name: String) throws -> TestPKI {
        let dir = tmp.file(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try key.write(to: dir.appendingPathComponent("leaf.pk8"), atomically: true, encoding: .utf8)
        try leafPEM.write(to: dir.appendingPathComponent("leaf.pem"), atomically: true, encoding: .utf8)
        try chain.write(to: dir.appendingPathComponent("chain.pem"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: ca.root, to: dir.appendingPathComponent("root.pem"))
        return TestPKI(dir: dir, curve: .p256)
    }

    /// A JPEG signed by lensd's engine with `response` stapled.
    private func signed(stapling response: [UInt8], _ name: String, pki: TestPKI? = nil) throws -> URL {
        let input = try TestJPEG.make(at: tmp.file("\(name)-in.jpg"))
        let output = tmp.file("\(name).jpg")
        try LensdSigning.sign(input, into: output, pki: pki ?? self.pki, ocspResponses: [response])
        return output
    }

    func testAGoodResponseSaysNotRevoked() throws {
        let response = try ca.ocspResponse(to: request.der, validMinutes: 60)
        let report = try assertVerifiersAgree(on: try signed(stapling: response, "good"), anchors: [pki.root], expect: "Trusted",
                                              "good", alsoComparing: ocspCodes)
        XCTAssertTrue(report.statuses.contains { $0.code == StatusCode.ocspNotRevoked }, "\(report.statuses)")
        let revocation = try XCTUnwrap(report.signer?.revocation)
        XCTAssertEqual(revocation.verdict, .good)
        XCTAssertEqual(revocation.producedAt.timeIntervalSinceNow, 0, accuracy: 300)
    }

    /// c2pa-rs 0.91.3 reports the revocation as a failure beside the chain's trust, which it still
    /// evaluates: the file is Invalid, its signer still listed as trusted.
    func testWithoutAResponseRevocationIsSkipped() throws {
        let input = try TestJPEG.make(at: tmp.file("plain-in.jpg"))
        try LensdSigning.sign(input, into: tmp.file("plain.jpg"), pki: pki)
        let report = try assertVerifiersAgree(on: tmp.file("plain.jpg"), anchors: [pki.root], expect: "Trusted", "no response",
                                              alsoComparing: ocspCodes)
        XCTAssertTrue(report.statuses.contains { $0.code == StatusCode.ocspSkipped && $0.kind == .informational })
    }

    func testARevokedResponseMakesTheFileInvalid() throws {
        try ca.revoke(leafPEM)
        let response = try ca.ocspResponse(to: request.der, validMinutes: 60)
        let report = try assertVerifiersAgree(on: try signed(stapling: response, "revoked"), anchors: [pki.root], expect: "Invalid",
                                              "revoked", alsoComparing: ocspCodes)
        XCTAssertEqual(report.failures.map(\.code), [StatusCode.ocspRevoked])
        guard case .revoked? = report.signer?.revocation?.verdict else {
            return XCTFail("not reported revoked: \(String(describing: report.signer?.revocation))")
        }
    }

    func testAResponseFromAResponderTheTrustListDoesNotKnowIsIgnored() throws {
        // Revoked, so that believing it would show; signed by another organization's responder.
        try ca.revoke(leafPEM)
        let stranger = try OrganizationCA(in: tmp.file("stranger"), name: "Stranger")
        let response = try ca.ocspResponse(to: request.der, validMinutes: 60, signedBy: stranger)
        let report = try assertVerifiersAgree(on: try signed(stapling: response, "stranger"), anchors: [pki.root],
                                              expect: "Trusted", "untrusted responder", alsoComparing: ocspCodes)
        XCTAssertNil(report.signer?.revocation)
    }

    func testATamperedResponseIsIgnored() throws {
        try ca.revoke(leafPEM)
        var response = try ca.ocspResponse(to: request.der, validMinutes: 60)
        // producedAt (the first GeneralizedTime, inside the signed tbsResponseData) a second later.
        let time = try XCTUnwrap(response.indices.first { response[$0] == 0x18 && response[$0 + 1] == 0x0F })
        response[time + 2 + 13] ^= 0x01
        let report = try assertVerifiersAgree(on: try signed(stapling: response, "tampered"), anchors: [pki.root],
                                              expect: "Trusted", "tampered response", alsoComparing: ocspCodes)
        XCTAssertNil(report.signer?.revocation)
    }

    /// The CertID binds a response to the signer: one about another certificate of the same CA,
    /// or about one of another trusted CA with the same serial number, says nothing about it —
    /// whether the x5chain names the issuer or (a leaf sent alone) the trust anchor does.
    func testAResponseAboutAnotherCertificateIsIgnored() throws {
        let root = try XCTUnwrap(Certificate.parsePEM(String(contentsOf: ca.root, encoding: .utf8)).first)
        let sibling = try ca.issueLeaf(commonName: "cam-08")
        try ca.revoke(sibling.certificate)
        let siblingRequest = try OCSPRequest(certificate: try XCTUnwrap(Certificate.parsePEM(sibling.certificate).first), issuer: root)
        try assertVerifiersAgree(on: try signed(stapling: try ca.ocspResponse(to: siblingRequest.der, validMinutes: 60), "sibling"),
                                 anchors: [pki.root], expect: "Trusted", "sibling revoked", alsoComparing: ocspCodes)

        let other = try OrganizationCA(in: tmp.file("other"), name: "Other")
        let twin = try other.issueLeaf(commonName: "twin")  // the same first serial as cam-07
        try other.revoke(twin.certificate)
        let otherRoot = try XCTUnwrap(Certificate.parsePEM(String(contentsOf: other.root, encoding: .utf8)).first)
        let twinRequest = try OCSPRequest(certificate: try XCTUnwrap(Certificate.parsePEM(twin.certificate).first), issuer: otherRoot)
        let twinResponse = try other.ocspResponse(to: twinRequest.der, validMinutes: 60)
        try assertVerifiersAgree(on: try signed(stapling: twinResponse, "twin"), anchors: [pki.root, other.root],
                                 expect: "Trusted", "same serial, other CA", alsoComparing: ocspCodes)
        try assertVerifiersAgree(on: try signed(stapling: twinResponse, "twin-leaf-only", pki: try leafOnlyPKI()),
                                 anchors: [pki.root, other.root], expect: "Trusted", "same serial, leaf alone", alsoComparing: ocspCodes)
    }

    /// A leaf sent without its issuer: the trust anchor that issued it binds the response.
    func testALeafSentAloneIsBoundThroughItsTrustAnchor() throws {
        try ca.revoke(leafPEM)
        let response = try ca.ocspResponse(to: request.der, validMinutes: 60)
        let report = try assertVerifiersAgree(on: try signed(stapling: response, "leaf-only", pki: try leafOnlyPKI()),
                                              anchors: [pki.root], expect: "Invalid", "leaf-only x5chain", alsoComparing: ocspCodes)
        XCTAssertEqual(report.failures.map(\.code), [StatusCode.ocspRevoked])
    }

    private func leafOnlyPKI() throws -> TestPKI {
        try writePKI(key: try String(contentsOf: pki.key, encoding: .utf8), chain: leafPEM, named: "leaf-only-\(UUID().uuidString)")
    }
}
