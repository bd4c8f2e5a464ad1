import Foundation
import LensClient
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

/// A user outside group lens gets the page that says how to get in — with the command for
/// them, their name in it — not a crash.
final class NotInGroupLensTests: LensCameraTestCase {
    override var appUser: String { TestUsers.outsider }
    override var appIsAccessible: Bool { true }

    func testTheUserIsToldHowToJoinGroupLens() throws {
        try waitForUnavailablePage("not-in-group-lens")
        // The page may still say "Connecting to lensd…" when it is first drawn.
        var words: [String] = []
        try waitFor("the page saying that the user is not in group lens") {
            words = try app.accessibleTree().map(\.name)
            return words.contains("You are not in group lens")
        }
        let advice = words.first { $0.hasPrefix("Only members") } ?? ""
        XCTAssertTrue(advice.hasPrefix("Only members of group lens may use the camera."), advice)
        XCTAssertTrue(advice.contains("sudo usermod -aG lens \(TestUsers.outsider)\n"), advice)
        XCTAssertFalse(advice.contains("$USER"), advice)
        XCTAssertTrue(app.isRunning)
    }
}

/// Another session holds the camera when the app starts: the app says so and takes the camera
/// as soon as that session lets go.
final class CameraInUseTests: LensCameraTestCase {
    private var holder: LensCamera?

    override func beforeApp() throws {
        let holder = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "holder"))
        try holder.startCaptureSession()
        self.holder = holder
    }

    func testTheAppGetsTheCameraOnceItIsFree() throws {
        try waitForUnavailablePage("camera-in-use")
        holder?.close()
        try waitForPreview()
    }
}
