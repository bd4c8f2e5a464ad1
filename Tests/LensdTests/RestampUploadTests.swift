import Foundation
import LensBus
import LensTestSupport
import XCTest

/// With an upload-url, a photo time-stamped later is sent again: the server ends up with the
/// time-stamped file, the one FetchResult returns.
final class RestampUploadTests: OutboxFlowTestCase {
    private var tsa: LocalTSA!

    override func prepare() throws {
        try super.prepare()
        tsa = try LocalTSA(directory: tmp.file("tsa"))
    }

    override func tearDown() {
        super.tearDown()
        tsa = nil
    }

    override var daemonArguments: [String] {
        super.daemonArguments + ["--tsa-url", tsa.url, "--tsa-trust-anchor", tsa.root.path, "--tsa-timeout", "2"]
    }

    func testTheTimeStampedFileIsUploadedAgain() throws {
        let port = tsa.port
        tsa.stop()
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let (name, info) = try capturePhoto(c, session)
        XCTAssertEqual(info["timestamped"]?.boolValue, false)
        let first = try c.waitForSignal("ResultUploaded", path: session, timeout: 30) { $0.arguments.first?.stringValue == name }
        XCTAssertEqual(first.arguments.last?.vardictValue?["sha256"]?.stringValue, info["sha256"]?.stringValue)

        tsa = try LocalTSA(directory: tmp.file("tsa"), port: port)
        let updated = try c.waitForSignal("ResultUpdated", path: session, timeout: 60) { $0.arguments.first?.stringValue == name }
        let stamped = try XCTUnwrap(updated.arguments.last?.vardictValue?["sha256"]?.stringValue)
        XCTAssertNotEqual(stamped, info["sha256"]?.stringValue)
        try c.waitForSignal("ResultUploaded", path: session, timeout: 30) {
            $0.arguments.first?.stringValue == name && $0.arguments.last?.vardictValue?["sha256"]?.stringValue == stamped
        }
        XCTAssertEqual(try sha256(arrived(name, "jpg")), stamped)
        let verdict = try ReferenceValidator.verdict(file: arrived(name, "jpg"), anchors: [try c.trustAnchorFile(in: tmp), tsa.root])
        XCTAssertEqual(verdict.validationState, "Trusted", "\(verdict.failureCodes)")
        XCTAssertTrue(verdict.claimAssertions.contains { $0.contains("c2pa.time-stamp") }, "\(verdict.claimAssertions)")
    }
}
