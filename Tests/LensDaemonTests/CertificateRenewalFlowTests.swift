import Foundation
import LensTestSupport
import XCTest

/// renew-before in process: within it of the device certificate's expiry, lensd logs once that
/// renewal is due and says from when in CertificateRenewAfter (what `lensctl status` and `enroll
/// status` read; their lines stay on the bus, CertificateRenewalTests); capture goes on.
final class CertificateRenewalFlowTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var lensd: DaemonHarness!
    private var log: CapturedLog!

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-renewal-flow")
        log = try CapturedLog(in: tmp)
    }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        defer { log.restore(printing: (testRun?.totalFailureCount ?? 0) > 0) }
        try lensd?.shutDown()
        lensd = nil
    }

    private func startDaemon(_ arguments: [String] = []) throws {
        try lensd?.shutDown()
        lensd = try DaemonHarness(["--state-dir", tmp.file("state").path] + arguments)
    }

    private func certificateDates() throws -> (notAfter: UInt64, renewAfter: UInt64) {
        let c = lensd.client()
        return (try XCTUnwrap(c.managerProperty("CertificateNotAfter").uint64Value),
                try XCTUnwrap(c.managerProperty("CertificateRenewAfter").uint64Value))
    }

    func testACertificateWithinRenewBeforeIsDueForRenewal() throws {
        // Not due with the default 30 days: the embedded certificate is valid for a year.
        try startDaemon()
        let now = UInt64(Date().timeIntervalSince1970)
        XCTAssertGreaterThan(try certificateDates().renewAfter, now)
        XCTAssertEqual(try certificateDates().notAfter - certificateDates().renewAfter, 30 * 86_400)
        XCTAssertFalse(log.text.contains("renew it"), log.text)

        // A year and a day ahead, it is due now, and said once however long lensd runs.
        try startDaemon(["--renew-before", "367d"])
        let (notAfter, renewAfter) = try certificateDates()
        XCTAssertEqual(notAfter - renewAfter, 367 * 86_400)
        XCTAssertLessThanOrEqual(renewAfter, UInt64(Date().timeIntervalSince1970))
        XCTAssertEqual(try lensd.client().managerProperty("EnrollmentState").stringValue, "enrolled")
        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        XCTAssertEqual(try member.get(try member.openSession(), "CaptureEnabled").boolValue, true)
        lensd.loop.advance(by: .seconds(60))
        XCTAssertEqual(log.text.components(separatedBy: "renew it before then").count - 1, 1, log.text)
        XCTAssertTrue(log.text.contains("remove \(tmp.file("state").path)/identity"), log.text)
    }
}
