import Foundation
import LensTestSupport
import XCTest

/// The app outlives lensd: the page that says what is wrong while it is gone, the camera back
/// when it returns.
final class ServiceStateTests: LensCameraTestCase {
    func testTheAppReconnectsAfterLensdRestarts() throws {
        try waitForPreview()
        let stateDirectory = daemon.stateDirectory
        daemon.stop()
        try waitForUnavailablePage("lensd-stopped")
        daemon = try DaemonUnderTest(bus: bus, arguments: daemonArguments, stateDirectory: stateDirectory)
        try daemon.start()
        try waitForPreview()
        XCTAssertTrue(app.isRunning)
    }
}

/// A user outside group lens gets the page that says how to get in, not a crash.
final class NotInGroupLensTests: LensCameraTestCase {
    override var appUser: String { TestUsers.outsider }

    func testTheUserIsToldHowToJoinGroupLens() throws {
        let page = try waitForUnavailablePage("not-in-group-lens")
        XCTAssertGreaterThan(page.distinctColors(in: Screenshot.Rect(x: 100, y: 200, width: 600, height: 200)), 10, "words on the page")
        XCTAssertTrue(app.isRunning)
    }
}
