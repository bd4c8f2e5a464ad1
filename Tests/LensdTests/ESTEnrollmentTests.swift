import Foundation
import LensTestSupport
import XCTest

/// Issue 30 through lensctl: `lensctl enroll status` (text and --json) of a lensd process that
/// runs as user lensd with `enrollment = est`, against Tests/oracle/est_server.py — a stand-in
/// for a production EST CA — that refuses its credential. The enrollment flow itself runs in
/// process (LensDaemonTests' ESTEnrollmentFlowTests).
final class ESTEnrollmentTests: LensdTestCase {
    private var server: ESTServer!
    private var credentialFile: URL!

    override func prepare() throws {
        server = try ESTServer(in: tmp.file("est"), credential: "camera-07:s3cret")
        credentialFile = tmp.file("est-credential")
        try ESTServer.writeCredential("camera-07:wrong", to: credentialFile, group: "lensd")
    }

    override var daemonConfiguration: String {
        """
        enrollment = est
        org-trust-anchor = \(server.ca.root.path)
        est-url = \(server.url)
        est-ca = \(server.tlsRoot.path)
        est-credential-file = \(credentialFile.path)
        """
    }

    func testEnrollStatusNamesTheRefusalAndTheNextAttempt() throws {
        var json = ""
        try waitUntil("an EST refusal in lensctl enroll status --json") {
            json = try lensctl.expect(0, ["enroll", "status", "--json"]).stdout
            return json.contains("HTTP 401")
        }
        try JSONSchemaCheck.assertValid(json, schema: "enroll")
        let status = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(status["enrollment_state"] as? String, "missing")
        let est = try XCTUnwrap(status["est"] as? [String: Any], json)
        XCTAssertNotNil(est["last_attempt"])
        XCTAssertNotNil(est["next_attempt"])
        XCTAssertEqual(est["last_error"] as? String, "the EST server refused the credential (HTTP 401)")

        let text = try lensctl.expect(0, ["enroll", "status"]).stdout
        XCTAssertTrue(text.hasPrefix("enrollment: missing\nest: waiting — last attempt at "), text)
        XCTAssertTrue(text.contains(": the EST server refused the credential (HTTP 401); next attempt "), text)
    }
}
