import Foundation
import LensTestSupport
import XCTest

/// renew-before: within it of the device certificate's expiry, `lensctl status` and `enroll
/// status` say that renewal is due, and capture goes on. What lensd says of it (CertificateRenewAfter,
/// its log) is tested in process (LensDaemonTests' CertificateRenewalFlowTests).
final class CertificateRenewalTests: LensdTestCase {
    func testACertificateWithinRenewBeforeIsDueForRenewal() throws {
        // Not due with the default 30 days: the embedded certificate is valid for a year.
        XCTAssertFalse(try lensctl.expect(0, ["status"]).stdout.contains("renewal"))
        let json = try lensctl.expect(0, ["status", "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "status")
        XCTAssertEqual(try renewalDue(json), false)

        // A year and a day ahead, it is due now.
        try restartDaemon(arguments: daemonArguments + ["--renew-before", "367d"])
        let status = try lensctl.expect(0, ["status"], as: TestUsers.member).stdout
        XCTAssertTrue(status.contains("— due for renewal: it expires in 365 days"), status)
        XCTAssertTrue(status.contains("Capture: enabled"), status)
        let enroll = try lensctl.expect(0, ["enroll", "status", "--json"]).stdout
        try JSONSchemaCheck.assertValid(enroll, schema: "enroll")
        XCTAssertEqual(try renewalDue(enroll), true)
    }

    private func renewalDue(_ json: String) throws -> Bool? {
        try (JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["renewal_due"] as? Bool
    }
}
