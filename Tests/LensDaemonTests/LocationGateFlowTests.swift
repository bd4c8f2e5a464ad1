import Foundation
import LensBus
import LensCore
@testable import LensDaemon
import LensTestSupport
import XCTest

/// The location gate in process, under `location = required`, fed by a FedLocationSource with
/// the positions of the NMEA log the bus test has gpsd play (hold-3d-4m.nmea: a 3D fix at 3.99 m),
/// ten fixes a second on the clock the test moves. Real gpsd going away and back is
/// LocationGateTests' on the bus.
final class LocationGateFlowTests: DaemonTestCase {
    private let source = FedLocationSource()
    private var position: GpsdNMEALog.Position!

    override func makeDaemon() throws -> DaemonHarness {
        position = try XCTUnwrap(GpsdNMEALog(named: "hold-3d-4m.nmea").positions.last)
        return try DaemonHarness(["--location", "required"], location: source)
    }

    private func reasons(_ c: HarnessClient, _ s: String) throws -> [String] {
        try c.get(s, "DisabledReasons").stringArrayValue ?? []
    }

    /// gpsd's rate: a fix every 0.1 s, `count` of them.
    private func feed(_ count: Int) {
        for _ in 0..<count {
            lensd.loop.advance(by: .milliseconds(100))
            source.report(position, at: lensd.loop.clock.wall())
        }
    }

    /// Disabled until the fix is within the threshold; a 4 m fix never satisfies 3 m; raising
    /// the threshold enables at once; an out-of-range threshold changes nothing.
    func testCaptureWaitsForAnAccurateEnoughFix() throws {
        let c = lensd.client()
        let s = try c.claimedSession(["maximumLocationAccuracy": .double(3)])
        XCTAssertEqual(try reasons(c, s), ["location"])
        XCTAssertThrowsError(try c.call(s, "BeginCapture")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.CaptureDisabled")
        }
        // The fix arrives (LocationChanged, ≤ 1/s: a second after the source reported no fix yet)
        // but at 3.99 m it does not meet 3 m.
        lensd.loop.advance(by: .milliseconds(900))
        feed(1)
        let located = try c.waitForSignal("LocationChanged", path: s) { $0.arguments.first?.vardictValue?["accuracy"] != nil }
        let fix = try XCTUnwrap(located.arguments.first?.vardictValue)
        XCTAssertEqual(fix["accuracy"]?.doubleValue ?? 0, 3.99, accuracy: 0.01)
        XCTAssertEqual(fix["mode"]?.stringValue, "3d")
        XCTAssertEqual(fix["altitude"]?.doubleValue, position.altitudeMSL)
        XCTAssertEqual(try c.get(s, "Location").vardictValue?["latitude"]?.doubleValue ?? 0, position.latitude, accuracy: 1e-6)
        let property = try c.waitForSignal("PropertiesChanged", path: s) { $0.arguments[1].vardictValue?["Location"] != nil }
        XCTAssertEqual(property.arguments[1].vardictValue?["Location"]?.vardictValue?["mode"]?.stringValue, "3d")
        // Ten fixes a second for 3 s: LocationChanged once a second, at the 10th, 20th and 30th.
        let before = c.signals.count
        feed(30)
        let after = c.signals.dropFirst(before)
        XCTAssertEqual(after.filter { $0.member == "LocationChanged" }.count, 3)
        XCTAssertEqual(try reasons(c, s), ["location"])
        XCTAssertFalse(after.contains { $0.member == "CaptureEnabled" })

        for bad in [Double.nan, .infinity, -.infinity, 2.999, 1500.001] {
            XCTAssertEqual(try c.call(s, "SetMaximumLocationAccuracy", [.double(bad)]).first?.boolValue, false, "\(bad)")
            XCTAssertEqual(try c.get(s, "MaximumLocationAccuracy").doubleValue, 3, "\(bad)")
        }
        XCTAssertEqual(try c.call(s, "SetMaximumLocationAccuracy", [.double(5)]).first?.boolValue, true)
        try c.waitForSignal("CaptureEnabled", path: s)
        let gate = try c.waitForSignal("PropertiesChanged", path: s) { $0.arguments[1].vardictValue?["CaptureEnabled"] != nil }
        XCTAssertEqual(gate.arguments[1].vardictValue?["CaptureEnabled"]?.boolValue, true)
        XCTAssertEqual(gate.arguments[1].vardictValue?["DisabledReasons"]?.stringArrayValue, [])
        XCTAssertEqual(try reasons(c, s), [])
        let disabled = try XCTUnwrap(try c.call(s, "SetMaximumLocationAccuracy", [.double(3)]).first?.boolValue)
        XCTAssertTrue(disabled)
        XCTAssertEqual(try c.waitForSignal("CaptureDisabled", path: s).arguments.first?.stringArrayValue, ["location"])
    }

    /// The source losing gpsd disables capture for location at once, with the reason it gives;
    /// a fix after it reconnects enables it again.
    func testASourceThatLosesGpsdDisablesCaptureUntilItsNextFix() throws {
        let c = lensd.client()
        let s = try c.openSession(["maximumLocationAccuracy": .double(10)])
        feed(1)
        try c.waitForSignal("CaptureEnabled", path: s)
        source.report(.connecting("lost the connection to gpsd at 127.0.0.1:2947 (Connection reset by peer); retrying in 0.5 s"))
        XCTAssertEqual(try c.waitForSignal("CaptureDisabled", path: s).arguments.first?.stringArrayValue, ["location"])
        XCTAssertEqual(try c.get(s, "Location").vardictValue, [:])
        guard case .dictionary(_, _, let details) = try c.get(s, "DisabledReasonDetails") else { return XCTFail("no details") }
        let why = details.first { $0.key.stringValue == "location" }?.value.stringValue ?? ""
        XCTAssertTrue(why.hasPrefix("lost the connection to gpsd"), why)
        feed(1)
        try c.waitForSignal("CaptureEnabled", path: s)
        XCTAssertEqual(try reasons(c, s), [])
    }
}
