import Foundation
import LensBus
@testable import LensDaemon
import LensTestSupport
import XCTest

/// Sessions in process: opened within the per-user cap, owned by their connection (or, when
/// persistent, their user), closed with it or when idle — with the clock the test moves.
final class SessionFlowTests: XCTestCase {
    private var lensd: DaemonHarness!

    override func setUpWithError() throws {
        try TestUsers.ensure()
        lensd = try DaemonHarness(["--max-sessions-per-user", "3", "--session-idle-timeout", "6"])
    }

    override func tearDownWithError() throws {
        try lensd.shutDown()
        lensd = nil
    }

    func testSessionCapPerUser() throws {
        let c = lensd.client()
        let sessions = try (0..<3).map { _ in try c.openSession() }
        XCTAssertThrowsError(try c.openSession()) {
            XCTAssertEqual($0.shortName, "Busy")
            XCTAssertTrue("\($0)".contains("max-sessions-per-user"), "\($0)")
        }
        // Another user has a cap of its own; a closed session frees a place.
        _ = try lensd.client(uid: try TestUsers.uid(TestUsers.member)).openSession()
        try c.call(sessions[0], "Close")
        _ = try c.openSession()
    }

    /// Another connection's session answers as one that never existed (issue 35.7), to a
    /// member; one who may not use lensd is told so.
    func testOnlyTheOwningConnectionMayUseASession() throws {
        let owner = lensd.client(), other = lensd.client(), outsider = lensd.client(uid: try TestUsers.uid(TestUsers.outsider))
        let s = try owner.openSession()
        for attempt in [{ _ = try other.call(s, "StartCaptureSession") }, { _ = try other.get(s, "CaptureEnabled") }] {
            XCTAssertThrowsError(try attempt()) {
                XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject")
                XCTAssertEqual("\($0)", "org.freedesktop.DBus.Error.UnknownObject: Unknown object '\(s)'.")
            }
        }
        XCTAssertThrowsError(try outsider.call(s, "StartCaptureSession")) { XCTAssertEqual($0.shortName, "NotAuthorized") }
        XCTAssertEqual(try owner.get(s, "CaptureEnabled").boolValue, true)
        XCTAssertEqual(lensd.service.sessions.visible(to: other.name), [], "introspection lists another's sessions")
        XCTAssertEqual(lensd.service.sessions.visible(to: owner.name), [1])
    }

    /// A connection-owned session dies with its connection, and so does its claim.
    func testASessionEndsWithItsConnection() throws {
        let owner = lensd.client()
        let s = try owner.claimedSession()
        owner.disconnect()
        let next = lensd.client()
        XCTAssertThrowsError(try next.get(s, "CaptureEnabled")) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject") }
        try next.call(try next.openSession(), "StartCaptureSession")
    }

    /// A persistent session outlives its connection and ends when left idle; the camera claim
    /// it held goes with it.
    func testIdlePersistentSessionEnds() throws {
        let first = lensd.client()
        let s = try first.openSession(["persistent": .bool(true)])
        try first.call(s, "StartCaptureSession")
        first.disconnect()
        let c = lensd.client()
        XCTAssertNotNil(try c.get(s, "CaptureEnabled"), "a persistent session survives its connection")
        lensd.loop.advance(by: .seconds(5))
        XCTAssertNotNil(try c.get(s, "CaptureEnabled"), "a call is activity")
        // Idle for 6 s, checked every 3 s.
        lensd.loop.advance(by: .seconds(9))
        XCTAssertThrowsError(try c.get(s, "CaptureEnabled")) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject") }
        try c.call(try c.openSession(), "StartCaptureSession")
    }

    /// Recording counts as activity: a busctl user's persistent session records past the idle
    /// timeout, and a later call of the same user stops it and receives the signals.
    func testARecordingPersistentSessionDoesNotIdleOut() throws {
        let first = lensd.client()
        let s = try first.openSession(["persistent": .bool(true)])
        try first.call(s, "StartCaptureSession")
        try first.set(s, "CameraMode", .string("video"))
        try first.call(s, "StartVideoCapture")
        first.disconnect()
        lensd.loop.advance(by: .seconds(11))
        let c = lensd.client()
        XCTAssertEqual(try c.get(s, "IsRecordingVideo").boolValue, true)
        // A frame recorded, so that there is a video to sign (the clock above is the test's, not the camera's).
        try c.waitUntilRecorded(s, seconds: 0.1)
        try c.call(s, "StopVideoCapture")
        try c.waitForSignal("VideoSigned", path: s)
    }

    func testUnknownOptionsAndWrongTypesAreRefusedByName() throws {
        let c = lensd.client()
        for (key, value) in [("speed", BusValue.double(1)), ("persistent", .string("yes")), ("maximumLocationAccuracy", .double(2)),
                             ("audio", .uint32(0))] {
            XCTAssertThrowsError(try c.openSession([key: value]), key) {
                XCTAssertEqual($0.shortName, "InvalidArgument")
                XCTAssertTrue("\($0)".contains(key), "\($0)")
            }
        }
    }
}
