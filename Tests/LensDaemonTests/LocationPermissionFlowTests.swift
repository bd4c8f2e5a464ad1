import Foundation
import LensCore
import LensTestSupport
import XCTest

/// A location source the system refuses lensd (LocationStatus.permissionDenied, as
/// GPSDLocationProvider reports it: GPSDPermissionTests) is the SDK's locationPermissionDenied:
/// Failed to the sessions as it begins, and the answer of BeginCapture while it lasts — where gpsd
/// without a fix answers CaptureDisabled.
final class LocationPermissionFlowTests: DaemonTestCase {
    private let source = FedLocationSource()
    private let refusal = "lensd may not connect to gpsd at 192.0.2.7:2947 (Operation not permitted): allow it in the firewall "
        + "or in lensd.service's IPAddressAllow=; retrying in 0.5 s"

    override func makeDaemon() throws -> DaemonHarness {
        try DaemonHarness(["--location", "required"], location: source)
    }

    private func locationDetail(_ c: HarnessClient, _ s: String) throws -> String {
        guard case .dictionary(_, _, let details) = try c.get(s, "DisabledReasonDetails") else { return "" }
        return details.first { $0.key.stringValue == "location" }?.value.stringValue ?? ""
    }

    func testARefusedLocationSourceIsLocationPermissionDeniedNotNoFix() throws {
        let c = lensd.client()
        let s = try c.claimedSession()
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, ["location"])
        XCTAssertThrowsError(try c.call(s, "BeginCapture")) { XCTAssertEqual($0.shortName, "CaptureDisabled", "no fix yet") }

        source.report(.permissionDenied(refusal))
        let failed = try c.waitForSignal("Failed", path: s)
        XCTAssertEqual(failed.arguments.map(\.stringValue), ["org.lensd.Lens1.Error.LocationPermissionDenied", refusal])
        let detail = try locationDetail(c, s)
        XCTAssertTrue(detail.hasPrefix(refusal), detail)
        XCTAssertThrowsError(try c.call(s, "BeginCapture")) {
            XCTAssertEqual($0.shortName, "LocationPermissionDenied")
            XCTAssertTrue("\($0)".contains("IPAddressAllow="), "\($0)")
        }
        // Still refused at the next attempt: no second Failed.
        source.report(.permissionDenied(refusal.replacingOccurrences(of: "0.5 s", with: "1 s")))
        lensd.loop.run()
        XCTAssertFalse(c.signalNames(from: s).contains("Failed"))

        // gpsd reached, no fix: capture disabled for want of a fix, and said so.
        source.report(.noFix)
        XCTAssertThrowsError(try c.call(s, "BeginCapture")) { XCTAssertEqual($0.shortName, "CaptureDisabled") }
        let noFix = try locationDetail(c, s)
        XCTAssertFalse(noFix.contains("may not connect"), noFix)
    }
}
