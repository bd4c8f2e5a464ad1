import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// Honest diagnosis: gpsd unreachable, no fix yet and a fix too coarse read differently — in
/// the DisabledReasonDetails property (LensClient's `disabledReasonDetails`), in `lensctl status`
/// — and each change is logged once, not every report or retry.
final class LocationDiagnosisTests: LocationTestCase {
    private func details(_ c: TestClient, _ s: String) throws -> [String: String] {
        guard case .dictionary(_, _, let entries) = try c.get(s, "DisabledReasonDetails") else { return [:] }
        return Dictionary(uniqueKeysWithValues: entries.compactMap { entry in
            entry.key.stringValue.flatMap { key in entry.value.stringValue.map { (key, $0) } }
        })
    }

    func testACoarseFixAndAnUnreachableGpsdAreToldApart() throws {
        let c = try client()
        let s = try c.openSession(["maximumLocationAccuracy": .double(3)])
        _ = try c.waitForSignal("LocationChanged", path: s) { $0.arguments.first?.vardictValue?["accuracy"] != nil }
        XCTAssertEqual(try details(c, s), ["location": "4 m > 3 m: the fix is coarser than needed"])
        let camera = try LensCamera(bus: .address(bus.address))
        defer { camera.close() }
        XCTAssertEqual(try camera.setMaximumLocationAccuracy(3), true)
        XCTAssertEqual(try camera.captureStatus().disabledReasonDetails, [.location: "4 m > 3 m: the fix is coarser than needed"])

        gpsd.kill(signal: SIGKILL)
        let endpoint = "gpsd at 127.0.0.1:\(gpsd.port) is not reachable"
        // Two announcements of the detail (it names the next retry), so lensd has retried at least once.
        for _ in 0..<2 {
            _ = try c.waitForSignal("PropertiesChanged", path: s, timeout: 20) {
                guard case .dictionary(_, _, let entries)? = $0.arguments[1].vardictValue?["DisabledReasonDetails"] else { return false }
                return entries.contains { $0.value.stringValue?.hasPrefix(endpoint) ?? false }
            }
        }
        let now = try details(c, s)
        XCTAssertTrue(now["location"]?.hasPrefix(endpoint) ?? false, "\(now)")
        let status = try lensctl.expect(0, ["status"], as: TestUsers.member).stdout
        XCTAssertTrue(status.contains("Capture: disabled (location: \(endpoint)"), status)

        let log = daemon.log
        XCTAssertEqual(log.components(separatedBy: "location: connected to gpsd").count - 1, 1, log)
        // The loss once ("closed the connection"), however many retries found it unreachable since.
        XCTAssertEqual(log.components(separatedBy: "location: gpsd at 127.0.0.1:\(gpsd.port)").count - 1, 1, log)
    }
}

/// gpsd connected but the receiver falls silent: "no fix yet", and "fix lost" logged once.
final class LocationLostFixDiagnosisTests: LocationTestCase {
    override var logName: String { "brief-3d-4m.nmea" }

    func testAStaleFixReadsAsNoFixYet() throws {
        let c = try client()
        let s = try c.openSession(["maximumLocationAccuracy": .double(10)])
        try waitForGate(c, s, enabled: true)
        try c.waitForSignal("CaptureDisabled", path: s, timeout: 15)
        let value = try c.get(s, "DisabledReasonDetails")
        guard case .dictionary(_, _, let entries) = value else { return XCTFail("\(value)") }
        XCTAssertEqual(entries.map(\.value.stringValue), ["no fix yet (need ≤ 10 m)"])
        XCTAssertEqual(daemon.log.components(separatedBy: "location: fix lost").count - 1, 1, daemon.log)
    }
}
