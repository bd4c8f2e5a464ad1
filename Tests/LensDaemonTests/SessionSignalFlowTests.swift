import Foundation
import LensBus
@testable import LensDaemon
import LensTestSupport
import XCTest

/// Every session signal and property change of the contract, emitted by the daemon in process,
/// with its payload checked; the subject watch's once-a-second look runs on the clock the test
/// moves. (Location and the capture gate are in LocationGateFlowTests and CaptureGateFlowTests.)
final class SessionSignalFlowTests: DaemonTestCase {
    func testControlsAnswerInTheReplyAndSignal() throws {
        let c = lensd.client()
        let s = try c.claimedSession()

        XCTAssertEqual(try c.call(s, "SetZoomFactor", [.double(2)]).first?.doubleValue, 2)
        XCTAssertEqual(try c.waitForSignal("ZoomFactorChanged", path: s).arguments.first?.doubleValue, 2)
        try waitForPropertyChange(c, s, "CurrentDevice") { $0.vardictValue?["videoZoomFactor"]?.doubleValue == 2 }
        XCTAssertEqual(try c.call(s, "Zoom", [.double(1.5)]).first?.doubleValue, 3)
        XCTAssertEqual(try c.waitForSignal("ZoomFactorChanged", path: s).arguments.first?.doubleValue, 3)

        let point = try c.call(s, "FocusAt", [.double(0.25), .double(0.75)])
        XCTAssertEqual(point.map(\.doubleValue), [0.25, 0.75])
        XCTAssertEqual(try c.waitForSignal("FocusedOnPoint", path: s).arguments.map(\.doubleValue), [0.25, 0.75])

        // After a manual focus the scene is sampled at once, before any later call, then once a
        // second: the flash brightens the next sample.
        try c.call(s, "SetFlashMode", [.string("on")])
        XCTAssertEqual(try c.waitForSignal("FlashModeChanged", path: s).arguments.first?.stringValue, "on")
        XCTAssertFalse(c.signalNames(from: s).contains("SubjectAreaChanged"), "the first sample is the reference")
        lensd.loop.advance(by: .seconds(1))
        try c.waitForSignal("SubjectAreaChanged", path: s)
        XCTAssertEqual(try c.call(s, "ToggleFlash").first?.stringValue, "auto")
        XCTAssertEqual(try c.waitForSignal("FlashModeChanged", path: s).arguments.first?.stringValue, "auto")

        let device = try XCTUnwrap(try c.call(s, "ChangeCamera").first?.vardictValue)
        XCTAssertEqual(device["position"]?.stringValue, "front")
        let changed = try c.waitForSignal("DeviceChanged", path: s).arguments.first?.vardictValue
        XCTAssertEqual(changed?["position"]?.stringValue, "front")
        XCTAssertEqual(try c.get(s, "CurrentDevice").vardictValue?["position"]?.stringValue, "front")

        try c.set(s, "CameraMode", .string("video"))
        try waitForPropertyChange(c, s, "CameraMode") { $0.stringValue == "video" }
        try c.set(s, "CameraMode", .string("photo"))
        try waitForPropertyChange(c, s, "CameraMode") { $0.stringValue == "photo" }
        XCTAssertThrowsError(try c.set(s, "CameraMode", .string("cinema"))) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.InvalidArgument")
        }

        XCTAssertEqual(try c.call(s, "SetMaximumLocationAccuracy", [.double(50)]).first?.boolValue, true)
        try waitForPropertyChange(c, s, "MaximumLocationAccuracy") { $0.doubleValue == 50 }
    }

    func testControlsNeedTheCaptureSession() throws {
        let c = lensd.client()
        let s = try c.openSession()
        for (member, arguments) in [("BeginCapture", []), ("SetZoomFactor", [BusValue.double(2)]), ("ToggleFlash", []),
                                    ("FocusAt", [.double(0.5), .double(0.5)]), ("ChangeCamera", [])] {
            XCTAssertThrowsError(try c.call(s, member, arguments), member) {
                XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.NotStarted", member)
            }
        }
    }

    func testSecondSessionIsToldWhoHoldsTheCamera() throws {
        let first = lensd.client(), second = lensd.client()
        let a = try first.openSession(), b = try second.openSession()
        try first.call(a, "StartCaptureSession")
        XCTAssertThrowsError(try second.call(b, "StartCaptureSession")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.Busy")
            XCTAssertTrue(($0 as? BusError)?.message.contains("root") == true, "\($0)")
        }
        try first.call(a, "StopCaptureSession")
        try first.call(a, "StopCaptureSession")  // idempotent
        try second.call(b, "StartCaptureSession")
    }

    /// A photo that cannot be stored ends in Failed, with the error's name.
    func testFailedSignalCarriesTheErrorName() throws {
        // Results of uid 0 go to <state>/results/0. The daemon runs as root here, whom no mode
        // keeps out, so a file where that directory belongs makes storing fail.
        let mine = URL(fileURLWithPath: lensd.configuration.stateDirectory).appendingPathComponent("results/0")
        try Data().write(to: mine)
        let c = lensd.client()
        let s = try c.claimedSession()
        let name = try XCTUnwrap(c.call(s, "BeginCapture").first?.stringValue)
        XCTAssertEqual(try c.waitForSignal("InitialCaptureFinished", path: s).arguments.first?.stringValue, name)
        let failed = try c.waitForSignal("Failed", path: s)
        XCTAssertTrue(failed.arguments.first?.stringValue?.hasPrefix("org.lensd.Lens1.Error.") == true, "\(failed.arguments)")
        XCTAssertFalse(failed.arguments.last?.stringValue?.isEmpty ?? true)
        XCTAssertFalse(c.signals.contains { $0.member == "PhotoSigned" })
        XCTAssertNoThrow(try c.get(s, "CaptureEnabled"), "still answering")
    }

    private func waitForPropertyChange(_ c: HarnessClient, _ path: String, _ property: String,
                                       _ check: (BusValue) -> Bool, line: UInt = #line) throws {
        let signal = try c.waitForSignal("PropertiesChanged", path: path) {
            $0.arguments.count == 3 && $0.arguments[1].vardictValue?[property] != nil
        }
        XCTAssertEqual(signal.arguments.first?.stringValue, "org.lensd.Lens1.Session", line: line)
        XCTAssertTrue(check(signal.arguments[1].vardictValue![property]!), "\(property): \(signal.arguments)", line: line)
    }
}
