import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Per-user session cap and the idle timeout of persistent sessions.
final class SessionLimitTests: LensdTestCase {
    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "optional", "--gpsd", "none",
         "--max-sessions-per-user", "3", "--session-idle-timeout", "6"]
    }

    func testSessionCapPerUser() throws {
        let c = try client()
        let sessions = try (0..<3).map { _ in try c.openSession() }
        XCTAssertThrowsError(try c.openSession()) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.Busy")
            XCTAssertTrue(($0 as? BusError)?.message.contains("max-sessions-per-user") == true, "\($0)")
        }
        // Another user has a cap of its own.
        let member = try peer(["open"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        try c.call(sessions[0], "Close")
        _ = try c.openSession()
    }

    /// A persistent session outlives its connection and ends when left idle; the camera claim
    /// it held goes with it.
    func testIdlePersistentSessionEnds() throws {
        let first = try client()
        let s = try first.openSession(["persistent": .bool(true)])
        try first.call(s, "StartCaptureSession")
        first.bus.close()
        let c = try client()
        XCTAssertNotNil(try c.get(s, "CaptureEnabled"), "a persistent session survives its connection")
        // Idle for 6 s, checked every 3 s: lensd says when it closes it (a call would count as activity).
        try waitForLog("idle for 6.0 seconds: closing it", timeout: 60)
        XCTAssertThrowsError(try c.get(s, "CaptureEnabled")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.freedesktop.DBus.Error.UnknownObject")
        }
        let next = try c.openSession()
        try c.call(next, "StartCaptureSession")
    }

    /// Recording counts as activity: a busctl user's persistent session records past the idle
    /// timeout, and a later call of the same user stops it and receives the signals.
    func testARecordingPersistentSessionDoesNotIdleOut() throws {
        let first = try client()
        let s = try first.openSession(["persistent": .bool(true)])
        try first.call(s, "StartCaptureSession")
        try first.set(s, "CameraMode", .string("video"))
        try first.call(s, "StartVideoCapture")
        first.bus.close()
        let c = try client()
        // Past the idle timeout and its check (6 s + 3 s) without a call: the wall clock is the subject.
        try c.drain(for: 11)
        XCTAssertEqual(try c.get(s, "IsRecordingVideo").boolValue, true)
        try c.call(s, "StopVideoCapture")
        let info = try XCTUnwrap(try c.waitForSignal("VideoSigned", path: s, timeout: 60).arguments.last?.vardictValue)
        XCTAssertGreaterThan(info["duration"]?.doubleValue ?? 0, 10, "\(info)")
    }
}
