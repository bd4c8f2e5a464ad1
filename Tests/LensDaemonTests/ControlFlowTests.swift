import Foundation
import LensBus
@testable import LensDaemon
import LensTestSupport
import XCTest

/// The controls as the SDK defines them, in process: a pinch that does not compound (its gesture
/// ending on the clock the test moves), ChangeCamera as the back/front toggle, and a failed
/// control announced by Failed too.
final class ControlFlowTests: DaemonTestCase {
    /// A pinch recognizer reports scales cumulative from the gesture's start; forwarding each
    /// update must give start × scale, not compound them.
    func testZoomUpdatesOfOneGestureDoNotCompound() throws {
        let c = lensd.client()
        let s = try c.claimedSession()
        XCTAssertEqual(try zoom(c, s, "SetZoomFactor", 2), 2)
        XCTAssertEqual(try zoom(c, s, "Zoom", 1.5), 3)
        XCTAssertEqual(try zoom(c, s, "Zoom", 2), 4)
        XCTAssertEqual(try zoom(c, s, "Zoom", 0.25), 1)
        // 300 ms without a Zoom ends the gesture.
        lensd.loop.advance(by: .milliseconds(500))
        XCTAssertEqual(try zoom(c, s, "Zoom", 3), 3)
        XCTAssertEqual(try zoom(c, s, "Zoom", 2), 2)
        // SetZoomFactor is absolute and ends the gesture at once.
        XCTAssertEqual(try zoom(c, s, "SetZoomFactor", 1.25), 1.25)
        XCTAssertEqual(try zoom(c, s, "Zoom", 2), 2.5)
    }

    /// The session starts on the back camera and ChangeCamera toggles front ↔ back.
    func testChangeCameraTogglesBetweenBackAndFront() throws {
        let c = lensd.client()
        let s = try c.openSession()
        XCTAssertEqual(try c.get(s, "CurrentDevice").vardictValue?["position"]?.stringValue, "back")
        try c.call(s, "StartCaptureSession")
        for expected in ["front", "back", "front"] {
            let device = try XCTUnwrap(try c.call(s, "ChangeCamera").first?.vardictValue)
            XCTAssertEqual(device["position"]?.stringValue, expected)
        }
    }

    /// Any listed camera is reached by its path from ListDevices; others are NotFound.
    func testSelectCameraSwitchesToTheListedPath() throws {
        let c = lensd.client()
        let s = try c.claimedSession()
        let paths = try XCTUnwrap(c.callManager("ListDevices").first?.arrayValue).compactMap { $0.vardictValue?["path"]?.stringValue }
        XCTAssertEqual(paths, ["synthetic:back", "synthetic:front"])
        let front = try XCTUnwrap(try c.call(s, "SelectCamera", [.string("synthetic:front")]).first?.vardictValue)
        XCTAssertEqual(front["position"]?.stringValue, "front")
        XCTAssertEqual(try c.waitForSignal("DeviceChanged", path: s).arguments.first?.vardictValue?["path"]?.stringValue,
                       "synthetic:front")
        XCTAssertEqual(try c.call(s, "SelectCamera", [.string("synthetic:front")]).first?.vardictValue?["path"]?.stringValue,
                       "synthetic:front")
        XCTAssertThrowsError(try c.call(s, "SelectCamera", [.string("/dev/video9")])) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.NotFound")
        }
        XCTAssertEqual(try c.waitForSignal("Failed", path: s).arguments.first?.stringValue, "org.lensd.Lens1.Error.NotFound")
        XCTAssertEqual(try c.get(s, "CurrentDevice").vardictValue?["path"]?.stringValue, "synthetic:front")
    }

    /// A control that fails answers with the error and then also emits Failed with the same
    /// name and message, so a client that only listens to signals learns of it.
    func testAFailedControlAlsoEmitsFailed() throws {
        let c = lensd.client()
        let s = try c.claimedSession()
        let refused: [(String, [BusValue], String)] = [
            ("Zoom", [.double(0)], "InvalidArgument"), ("SetZoomFactor", [.double(0.5)], "InvalidArgument"),
            ("FocusAt", [.double(1.5), .double(0.5)], "InvalidArgument"), ("SetFlashMode", [.string("strobe")], "InvalidArgument"),
        ]
        for (member, arguments, name) in refused {
            var answer: BusError?
            XCTAssertThrowsError(try c.call(s, member, arguments)) { answer = $0 as? BusError }
            XCTAssertEqual(answer?.name, "org.lensd.Lens1.Error.\(name)", member)
            let failed = try c.waitForSignal("Failed", path: s)
            XCTAssertEqual(failed.arguments.map(\.stringValue), [answer?.name, answer?.message], member)
        }
        // Without the claim: NotStarted, announced the same way.
        try c.call(s, "StopCaptureSession")
        XCTAssertThrowsError(try c.call(s, "ChangeCamera"))
        XCTAssertEqual(try c.waitForSignal("Failed", path: s).arguments.first?.stringValue, "org.lensd.Lens1.Error.NotStarted")
    }

    /// Someone else's call on this session is refused without telling the owner anything.
    func testAnOutsidersControlCallSendsTheOwnerNoFailed() throws {
        let owner = lensd.client()
        let s = try owner.claimedSession()
        let other = lensd.client()
        XCTAssertThrowsError(try other.call(s, "Zoom", [.double(0)])) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.freedesktop.DBus.Error.UnknownObject", "as a session that never existed")
        }
        // lensd handles calls in order: a Failed for the outsider's call would come before this one's.
        XCTAssertThrowsError(try owner.call(s, "FocusAt", [.double(2), .double(2)]))
        let first = try owner.waitForSignal("Failed", path: s)
        XCTAssertEqual(first.arguments.first?.stringValue, "org.lensd.Lens1.Error.InvalidArgument")
    }

    private func zoom(_ c: HarnessClient, _ s: String, _ member: String, _ value: Double) throws -> Double? {
        try c.call(s, member, [.double(value)]).first?.doubleValue
    }
}
