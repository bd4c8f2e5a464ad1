import Foundation
import LensBus
import LensCamera
import LensContract
import LensCore
import LensCrypto
@testable import LensDaemon
import LensTestSupport
import XCTest

/// The gate's other reasons in process: no camera, low storage, an identity that expires while
/// lensd runs — the last on the clock the test moves, which the cameras read too.
final class CaptureGateFlowTests: XCTestCase {
    private var lensd: DaemonHarness?

    override func tearDownWithError() throws {
        try lensd?.shutDown()
        lensd = nil
    }

    private func start(_ arguments: [String], cameras: [any Camera]? = nil) throws -> DaemonHarness {
        let started = try DaemonHarness(arguments, cameras: cameras)
        lensd = started
        return started
    }

    /// With `camera = auto` lensd looks for V4L2 devices, and this machine has none.
    func testNoRealCameraDisablesCaptureAndTheSyntheticOneIsNeverAFallback() throws {
        let c = try start(["--camera", "auto"]).client()
        let s = try c.openSession()
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, ["camera"])
        XCTAssertEqual(try c.get(Lens1.managerPath, "CameraPresent").boolValue, false)
        XCTAssertEqual(try c.callManager("ListDevices").first?.arrayValue?.count, 0)
    }

    /// A client that only listens to signals is told the session opened disabled, and why.
    func testASessionOpenedDisabledIsToldSoBySignal() throws {
        let c = try start(["--camera", "auto"]).client()
        let s = try c.openSession()
        let disabled = try c.waitForSignal("CaptureDisabled", path: s)
        XCTAssertEqual(disabled.arguments.first?.stringArrayValue, ["camera"])
        XCTAssertEqual(disabled.destination, c.name, "to the session's owner only")
    }

    func testLowSpaceInTheStateDirectoryDisablesCapture() throws {
        let c = try start(["--min-free-bytes", "\(Int64(1) << 60)"]).client()
        let s = try c.claimedSession()
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, ["storage"])
        XCTAssertEqual(try c.get(s, "CaptureEnabled").boolValue, false)
        XCTAssertThrowsError(try c.call(s, "BeginCapture")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.CaptureDisabled")
        }
    }

    /// A recording that outlives the device certificate cannot be signed: it is kept, playable and
    /// unsigned, and VideoUnsigned says why. The expiry itself is announced as it happens (the rule
    /// behind it is CaptureConditionsTests'). The synthetic cameras run on a clock moved with the
    /// daemon's, so the recording spans the certificate's lifetime as a camera's would.
    func testARecordingThatOutlivesTheCertificateIsKeptUnsigned() throws {
        let lifetime: TimeInterval = 8
        let cameraClock = ManualClock()
        let identity = try TemporaryDirectory(prefix: "lensd-identity")
        try writeIdentity(in: identity.url, expiringIn: lifetime)
        let lensd = try start(["--key", identity.file("device.key").path, "--chain", identity.file("chain.pem").path,
                               "--trust-anchor", identity.file("root.pem").path],
                              cameras: [CameraPosition.back, .front].map {
                                  SyntheticCamera(width: 320, height: 240, position: $0, clock: cameraClock.clock.wall)
                              })
        let c = lensd.client()
        let s = try c.openSession()
        XCTAssertEqual(try c.get(Lens1.managerPath, "EnrollmentState").stringValue, "enrolled")
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, [])
        try c.call(s, "StartCaptureSession")
        try c.set(s, "CameraMode", .string("video"))
        try c.call(s, "StartVideoCapture")
        try waitUntilRecorded(c, s, seconds: 0.03)
        // Past the certificate's end: the next look (every 5 s) finds it expired.
        cameraClock.advance(by: .seconds(lifetime + 2))
        lensd.loop.advance(by: .seconds(lifetime + 2))
        let changed = try c.waitForSignal("PropertiesChanged", path: Lens1.managerPath) {
            $0.arguments.count > 1 && $0.arguments[1].vardictValue?["EnrollmentState"] != nil
        }
        XCTAssertEqual(changed.arguments.first?.stringValue, Lens1.managerInterface)
        XCTAssertEqual(changed.arguments[1].vardictValue?["EnrollmentState"]?.stringValue, "expired")
        XCTAssertEqual(try c.waitForSignal("CaptureDisabled", path: s).arguments.first?.stringArrayValue, ["enrollment"])
        XCTAssertEqual(try c.get(Lens1.managerPath, "EnrollmentState").stringValue, "expired")
        // A frame from after the expiry, then the stop.
        try waitUntilRecorded(c, s, seconds: lifetime + 1)
        try c.call(s, "StopVideoCapture")
        let unsigned = try c.waitForSignal("VideoUnsigned", path: s, timeout: .seconds(60))
        let info = try XCTUnwrap(unsigned.arguments.last?.vardictValue)
        XCTAssertTrue(info["reason"]?.stringValue?.contains("expired") == true, "\(info)")
        let name = try XCTUnwrap(unsigned.arguments.first?.stringValue)
        let fetched = try XCTUnwrap(c.call(s, "FetchResult", [.string(name)]).first?.fdValue)
        let video = lensd.tmp.file("unsigned.mp4")
        try Data(FileHandle(fileDescriptor: fetched, closeOnDealloc: true).readToEnd() ?? Data()).write(to: video)
        let probe = try FFprobeReport.read(video)
        XCTAssertEqual(probe.decodeErrors, "")
        XCTAssertEqual(Double(probe.frames), (info["frames"]?.uint32Value).map(Double.init) ?? -1)
        XCTAssertGreaterThan(probe.duration, lifetime - 2)
        XCTAssertEqual(try ReferenceValidator.verdict(file: video).exitStatus, 2, "an unsigned video has no manifest")
    }

    /// Runs the loop until the session's recording holds `seconds` of frames.
    private func waitUntilRecorded(_ c: HarnessClient, _ s: String, seconds: Double) throws {
        try c.loop.run(until: {
            (try? c.get(s, "VideoRecordingProgress").vardictValue?["duration"]?.doubleValue ?? 0) ?? 0 >= seconds
        }, "\(seconds) s recorded")
    }

    /// An administrator-installed identity whose certificate expires `lifetime` seconds from now.
    private func writeIdentity(in directory: URL, expiringIn lifetime: TimeInterval) throws {
        let now = Date()
        let rootKey = try PrivateKey.generate(.p256)
        let root = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Lensd Test", commonName: "test root"), subjectKey: rootKey.publicKey,
            profile: .rootCA, notBefore: now - 60, notAfter: now + 3600, issuer: nil, selfSigningKey: rootKey)
        let key = try PrivateKey.generate(.p256)
        let leaf = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Lensd Test", organizationalUnit: "Devices", commonName: "short-lived"),
            subjectKey: key.publicKey, profile: .c2paSigner, notBefore: now - 60, notAfter: now + lifetime,
            issuer: (root, rootKey))
        try key.pkcs8PEM().write(to: directory.appendingPathComponent("device.key"), atomically: true, encoding: .utf8)
        try leaf.pem.write(to: directory.appendingPathComponent("chain.pem"), atomically: true, encoding: .utf8)
        try root.pem.write(to: directory.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.appendingPathComponent("device.key").path)
    }
}
