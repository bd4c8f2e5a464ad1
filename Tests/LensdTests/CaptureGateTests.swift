import Foundation
import LensBus
import LensClient
import LensCrypto
import LensTestSupport
import XCTest

/// The gate's other reasons: no camera, low storage, an identity that expires while lensd runs.
final class CameraGateTests: LensdTestCase {
    override var daemonArguments: [String] { ["--camera", "auto", "--location", "optional", "--gpsd", "none"] }

    func testNoRealCameraDisablesCaptureAndTheSyntheticOneIsNeverAFallback() throws {
        let c = try client()
        let s = try c.openSession()
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, ["camera"])
        XCTAssertEqual(try c.get(TestClient.managerPath, "CameraPresent", interface: TestClient.manager).boolValue, false)
        XCTAssertEqual(try c.callManager("ListDevices").first?.arrayValue?.count, 0)
    }

    /// A client that only listens to signals is told the session opened disabled, and why.
    func testASessionOpenedDisabledIsToldSoBySignal() throws {
        let c = try client()
        let s = try c.openSession()
        let disabled = try c.waitForSignal("CaptureDisabled", path: s)
        XCTAssertEqual(disabled.arguments.first?.stringArrayValue, ["camera"])

        let delegate = RecordingDelegate()
        let camera = try LensCamera(bus: .address(bus.address), delegate: delegate, delegateQueue: delegate.queue)
        defer { camera.close() }
        XCTAssertEqual(try delegate.wait(for: "captureDisabled") { if case .captureDisabled = $0 { true } else { false } },
                       .captureDisabled([.camera]))
    }
}

final class StorageGateTests: LensdTestCase {
    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "optional", "--gpsd", "none", "--min-free-bytes", "\(Int64(1) << 60)"]
    }

    func testLowSpaceInTheStateDirectoryDisablesCapture() throws {
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, ["storage"])
        XCTAssertEqual(try c.get(s, "CaptureEnabled").boolValue, false)
        XCTAssertThrowsError(try c.call(s, "BeginCapture")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.CaptureDisabled")
        }
    }
}

/// An administrator-installed identity whose certificate expires a few seconds after start.
class ShortLivedIdentityTestCase: LensdTestCase {
    static let lifetime: TimeInterval = 8
    var identityDirectory: URL { tmp.file("identity-config") }

    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "optional", "--gpsd", "none",
         "--key", identityDirectory.appendingPathComponent("device.key").path,
         "--chain", identityDirectory.appendingPathComponent("chain.pem").path,
         "--trust-anchor", identityDirectory.appendingPathComponent("root.pem").path]
    }

    override func prepare() throws {
        let now = Date()
        let rootKey = try PrivateKey.generate(.p256)
        let root = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Lensd Test", commonName: "test root"), subjectKey: rootKey.publicKey,
            profile: .rootCA, notBefore: now - 60, notAfter: now + 3600, issuer: nil, selfSigningKey: rootKey)
        let key = try PrivateKey.generate(.p256)
        let leaf = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Lensd Test", organizationalUnit: "Devices", commonName: "short-lived"),
            subjectKey: key.publicKey, profile: .c2paSigner, notBefore: now - 60, notAfter: now + Self.lifetime,
            issuer: (root, rootKey))
        try FileManager.default.createDirectory(at: identityDirectory, withIntermediateDirectories: true)
        try key.pkcs8PEM().write(to: identityDirectory.appendingPathComponent("device.key"), atomically: true, encoding: .utf8)
        try leaf.pem.write(to: identityDirectory.appendingPathComponent("chain.pem"), atomically: true, encoding: .utf8)
        try root.pem.write(to: identityDirectory.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: identityDirectory.appendingPathComponent("device.key").path)
        XCTAssertEqual(try runProcess(["chown", "-R", "lensd:lensd", identityDirectory.path]).status, 0)
    }

}

/// A recording that outlives the device certificate cannot be signed: it is kept, playable and
/// unsigned, and VideoUnsigned says why. The expiry itself is announced as it happens (the rule
/// behind it is CaptureConditionsTests', at an injected clock).
final class RecordingPastExpiryTests: ShortLivedIdentityTestCase {
    func testARecordingThatOutlivesTheCertificateIsKeptUnsigned() throws {
        let c = try client()
        let s = try c.openSession()
        XCTAssertEqual(try c.get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "enrolled")
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, [])
        try c.call(s, "StartCaptureSession")
        try c.set(s, "CameraMode", .string("video"))
        try c.call(s, "StartVideoCapture")
        let changed = try c.waitForSignal("PropertiesChanged", path: TestClient.managerPath, timeout: Self.lifetime + 10) {
            $0.arguments.count > 1 && $0.arguments[1].vardictValue?["EnrollmentState"] != nil
        }
        XCTAssertEqual(changed.arguments.first?.stringValue, TestClient.manager)
        XCTAssertEqual(changed.arguments[1].vardictValue?["EnrollmentState"]?.stringValue, "expired")
        XCTAssertEqual(try c.waitForSignal("CaptureDisabled", path: s, timeout: 10).arguments.first?.stringArrayValue,
                       ["enrollment"])
        XCTAssertEqual(try c.get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "expired")
        try c.call(s, "StopVideoCapture")
        let unsigned = try c.waitForSignal("VideoUnsigned", path: s, timeout: 60)
        let info = try XCTUnwrap(unsigned.arguments.last?.vardictValue)
        XCTAssertTrue(info["reason"]?.stringValue?.contains("expired") == true, "\(info)")
        let name = try XCTUnwrap(unsigned.arguments.first?.stringValue)
        let fetched = try XCTUnwrap(c.call(s, "FetchResult", [.string(name)]).first?.fdValue)
        let video = tmp.file("unsigned.mp4")
        try Data(FileHandle(fileDescriptor: fetched, closeOnDealloc: true).readToEnd() ?? Data()).write(to: video)
        let probe = try FFprobeReport.read(video)
        XCTAssertEqual(probe.decodeErrors, "")
        XCTAssertEqual(Double(probe.frames), (info["frames"]?.uint32Value).map(Double.init) ?? -1)
        XCTAssertGreaterThan(probe.duration, Self.lifetime - 2)
        XCTAssertEqual(try ReferenceValidator.verdict(file: video).exitStatus, 2, "an unsigned video has no manifest")
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
