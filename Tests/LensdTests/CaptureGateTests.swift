import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// No camera, as LensClient meets it on the bus. The gate's reasons themselves (no camera, low
/// storage, an expiring identity) are CaptureGateFlowTests' (in process).
final class CameraGateTests: LensdTestCase {
    override var daemonArguments: [String] { ["--camera", "auto", "--location", "optional", "--gpsd", "none"] }

    /// LensClient's delegate hears that capture is disabled, and why, without asking.
    func testLensClientIsToldTheSessionOpenedDisabled() throws {
        let delegate = RecordingDelegate()
        let camera = try LensCamera(bus: .address(bus.address), delegate: delegate, delegateQueue: delegate.queue)
        defer { camera.close() }
        XCTAssertEqual(try delegate.wait(for: "captureDisabled") { if case .captureDisabled = $0 { true } else { false } },
                       .captureDisabled([.camera]))
    }
}

/// Under systemd (NOTIFY_SOCKET set) lensd reports READY=1 and pings the watchdog.
final class ServiceNotificationTests: LensdTestCase {
    var socket: Int32 = -1
    var socketPath: String { tmp.file("notify").path }

    override func prepare() throws {
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            _ = socketPath.utf8CString.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        chmod(socketPath, 0o777)
    }

    override func setUpWithError() throws {
        // The daemon must see NOTIFY_SOCKET from its first instant: start it here, not in super.
        try TestUsers.ensure()
        tmp = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tmp.url.path)
        bus = try makeBus()
        try prepare()
        daemon = try DaemonUnderTest(bus: bus, arguments: daemonArguments, stateDirectory: tmp.file("state"))
        daemon.environment = ["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "400000"]
        try daemon.start()
    }

    override func tearDown() {
        close(socket)
        super.tearDown()
    }

    func testReadyAndWatchdogAreSent() throws {
        var messages: [String] = []
        let deadline = Date().addingTimeInterval(5)
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline, messages.filter({ $0.contains("WATCHDOG=1") }).count < 2 {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n > 0 { messages.append(String(decoding: buffer[..<n], as: UTF8.self)) }
        }
        XCTAssertTrue(messages.first?.contains("READY=1") == true, "\(messages)")
        XCTAssertGreaterThanOrEqual(messages.filter { $0.contains("WATCHDOG=1") }.count, 2, "\(messages)")
    }
}

/// A key that disappears is never silently replaced: capture stays disabled for enrollment.
final class EnrollmentMissingTests: LensdTestCase {
    func testMissingKeyDisablesCaptureAndNoNewIdentityIsMade() throws {
        let identity = daemon.stateDirectory.appendingPathComponent("identity")
        let certificate = try Data(contentsOf: identity.appendingPathComponent("device.pem"))
        daemon.stop()
        try FileManager.default.removeItem(at: identity.appendingPathComponent("device.key"))
        try restartDaemon()
        let c = try client()
        let s = try c.openSession()
        XCTAssertEqual(try c.get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "missing")
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, ["enrollment"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: identity.appendingPathComponent("device.key").path))
        XCTAssertEqual(try Data(contentsOf: identity.appendingPathComponent("device.pem")), certificate)
        XCTAssertTrue(daemon.log.contains("capture disabled (enrollment)"), daemon.log)
        // No identity, no root to trust: GetTrustAnchor says so by the Enrollment error.
        XCTAssertThrowsError(try c.callManager("GetTrustAnchor")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.Enrollment", "\($0)")
        }
    }
}
