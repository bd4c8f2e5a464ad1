import Foundation
import LensCrypto
import LensTestSupport
import XCTest

/// lensd's OCSP client side against OpenSSL's own responder (`openssl ocsp`) answering from a real
/// CA index: good, revoked, unknown, and every answer that must not be believed.
final class OCSPTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var ca: OrganizationCA!
    private var leaf: Certificate!
    private var root: Certificate!
    private var leafPEM = ""

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        ca = try OrganizationCA(in: tmp.file("ca"))
        leafPEM = try ca.issueLeaf(commonName: "cam-07").certificate
        leaf = try XCTUnwrap(Certificate.parsePEM(leafPEM).first)
        root = try XCTUnwrap(Certificate.parsePEM(String(contentsOf: ca.root, encoding: .utf8)).first)
    }

    override func tearDown() { tmp = nil }

    private func check(_ response: [UInt8], request: OCSPRequest?, anchors: [Certificate]? = nil, now: Date = Date()) throws -> OCSPStatus {
        try OCSPResponse.check(response, certificate: leaf, issuer: root, anchors: anchors ?? [root], request: request, now: now)
    }

    func testGoodThenRevoked() throws {
        let request = try OCSPRequest(certificate: leaf, issuer: root)
        let good = try check(try ca.ocspResponse(to: request.der, validMinutes: 60), request: request)
        XCTAssertEqual(good.verdict, OCSPStatus.Verdict.good)
        XCTAssertEqual(try XCTUnwrap(good.nextUpdate).timeIntervalSince(good.thisUpdate), 3600, accuracy: 5)

        try ca.revoke(leafPEM)
        let again = try OCSPRequest(certificate: leaf, issuer: root)
        guard case .revoked(let at, let reason) = try check(try ca.ocspResponse(to: again.der), request: again).verdict else {
            return XCTFail("not reported revoked")
        }
        XCTAssertEqual(at.timeIntervalSinceNow, 0, accuracy: 120)
        XCTAssertEqual(reason, 1, "keyCompromise")
    }

    func testACertificateTheResponderDoesNotKnowIsUnknown() throws {
        // The responder's index without the leaf's line.
        let index = ca.directory.appendingPathComponent("index.txt")
        let request = try OCSPRequest(certificate: leaf, issuer: root)
        _ = try ca.ocspResponse(to: request.der)  // the responder's own certificate is made first
        let lines = try String(contentsOf: index, encoding: .utf8)
        try lines.split(separator: "\n").filter { !$0.contains("CN=cam-07") }.map { $0 + "\n" }.joined()
            .write(to: index, atomically: true, encoding: .utf8)
        let response = try ca.ocspResponse(to: request.der)
        try lines.write(to: index, atomically: true, encoding: .utf8)
        XCTAssertEqual(try check(response, request: request).verdict, OCSPStatus.Verdict.unknown)
    }

    func testAnswersThatMustNotBeBelievedAreRefusedWithTheReason() throws {
        let request = try OCSPRequest(certificate: leaf, issuer: root)
        let response = try ca.ocspResponse(to: request.der, validMinutes: 1)
        XCTAssertEqual(try check(response, request: request).verdict, OCSPStatus.Verdict.good)

        func refused(_ bytes: [UInt8], request: OCSPRequest?, anchors: [Certificate]? = nil, now: Date = Date(),
                     _ reason: String, line: UInt = #line) {
            XCTAssertThrowsError(try check(bytes, request: request, anchors: anchors, now: now), line: line) {
                XCTAssertTrue("\($0)".contains(reason), "\($0)", line: line)
            }
        }
        // Another request's answer (a replay): its nonce is not ours.
        refused(response, request: try OCSPRequest(certificate: leaf, issuer: root), "nonce")
        // An answer past its nextUpdate.
        refused(response, request: request, now: Date().addingTimeInterval(3600), "stale")
        // Signed by a root we do not trust.
        let otherRoot = try XCTUnwrap(Certificate.parsePEM(String(contentsOf: try OrganizationCA(in: tmp.file("o"), name: "O").root,
                                                                  encoding: .utf8)).first)
        refused(response, request: request, anchors: [otherRoot], "not signed by the issuer")
        // A changed byte in the signed part, a truncated answer, trailing bytes, and nothing at all.
        // producedAt (the first GeneralizedTime, inside the signed tbsResponseData) a second later.
        var flipped = response
        let time = try XCTUnwrap(flipped.indices.first { flipped[$0] == 0x18 && flipped[$0 + 1] == 0x0F })
        flipped[time + 2 + 13] ^= 0x01
        refused(flipped, request: request, "not signed by the issuer")
        refused(Array(response.dropLast(10)), request: request, "parse the OCSP response")
        refused(response + [0], request: request, "trailing bytes")
        refused([], request: request, "empty input")
    }

    func testTheResponderNamedInTheCertificateIsFound() throws {
        let withAIA = try OrganizationCA(in: tmp.file("aia"))
        try """
            [ocsp_leaf]
            \(OrganizationCA.c2paExtensions)
            authorityInfoAccess = OCSP;URI:http://ocsp.example.org/,OCSP;URI:http://backup.example.org/
            """.write(to: withAIA.directory.appendingPathComponent("extra.cnf"), atomically: true, encoding: .utf8)
        let config = try String(contentsOf: withAIA.config, encoding: .utf8)
            + "\n" + String(contentsOf: withAIA.directory.appendingPathComponent("extra.cnf"), encoding: .utf8)
        try config.write(to: withAIA.config, atomically: true, encoding: .utf8)
        let certificate = try XCTUnwrap(Certificate.parsePEM(try withAIA.issueLeaf(commonName: "aia", extensions: "ocsp_leaf").certificate).first)
        XCTAssertEqual(certificate.ocspURLs, ["http://ocsp.example.org/", "http://backup.example.org/"])
        XCTAssertEqual(leaf.ocspURLs, [])
    }
}
