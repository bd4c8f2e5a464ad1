import Foundation
import LensTestSupport
import XCTest

/// renew-before: within it of the device certificate's expiry, lensd logs once that renewal is
/// due and `lensctl status` and `enroll status` say so; capture goes on.
final class CertificateRenewalTests: LensdTestCase {
    func testACertificateWithinRenewBeforeIsDueForRenewal() throws {
        // Not due with the default 30 days: the embedded certificate is valid for a year.
        XCTAssertFalse(try lensctl.expect(0, ["status"]).stdout.contains("renewal"))
        XCTAssertFalse(daemon.log.contains("renew it"), daemon.log)
        let json = try lensctl.expect(0, ["status", "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "status")
        XCTAssertEqual(try renewalDue(json), false)

        // A year and a day ahead, it is due now.
        try restartDaemon(arguments: daemonArguments + ["--renew-before", "367d"])
        let c = try client()
        let notAfter = try XCTUnwrap(c.get(TestClient.managerPath, "CertificateNotAfter", interface: TestClient.manager).uint64Value)
        let renewAfter = try XCTUnwrap(c.get(TestClient.managerPath, "CertificateRenewAfter", interface: TestClient.manager).uint64Value)
        XCTAssertEqual(notAfter - renewAfter, 367 * 86_400)
        let status = try lensctl.expect(0, ["status"], as: TestUsers.member).stdout
        XCTAssertTrue(status.contains("— due for renewal: it expires in 365 days"), status)
        XCTAssertTrue(status.contains("Capture: enabled"), status)
        let enroll = try lensctl.expect(0, ["enroll", "status", "--json"]).stdout
        try JSONSchemaCheck.assertValid(enroll, schema: "enroll")
        XCTAssertEqual(try renewalDue(enroll), true)
        XCTAssertEqual(daemon.log.components(separatedBy: "renew it before then").count - 1, 1, daemon.log)
        XCTAssertTrue(daemon.log.contains("remove \(tmp.file("state").path)/identity"), daemon.log)
    }

    private func renewalDue(_ json: String) throws -> Bool? {
        try (JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["renewal_due"] as? Bool
    }
}
