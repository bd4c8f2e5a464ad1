import Foundation
import LensBus
import LensTestSupport
import XCTest

/// lensd asking its CA's OCSP responder about its own certificate: OpenSSL's real responder
/// (`openssl ocsp -port`) answering from the CA's index, the certificate a key and chain the
/// organization's CA issued (key, chain, trust-anchor), every ocsp-interval (1 s here).
final class RevocationTests: LensdTestCase {
    private var ca: OrganizationCA!
    private var leafPEM = ""
    private var port: UInt16 = 0
    private var responder: ServerProcess?
    private var policy = "required"

    override func prepare() throws {
        ca = try OrganizationCA(in: tmp.file("org-ca"))
        let leaf = try ca.issueLeaf(commonName: "cam-07")
        leafPEM = leaf.certificate
        try leaf.key.write(to: tmp.file("device.key"), atomically: true, encoding: .utf8)
        try leafPEM.write(to: tmp.file("chain.pem"), atomically: true, encoding: .utf8)
        try OrganizationCA.run(["chown", "lensd:lensd", tmp.file("device.key").path])
        try OrganizationCA.run(["chmod", "0600", tmp.file("device.key").path])
        port = try GpsdSockets.freePort()
        try startResponder()
    }

    override func tearDown() {
        responder?.stop()
        super.tearDown()
    }

    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "optional", "--gpsd", "none",
         "--key", tmp.file("device.key").path, "--chain", tmp.file("chain.pem").path, "--trust-anchor", ca.root.path,
         "--ocsp-url", "http://127.0.0.1:\(port)/", "--ocsp-interval", "1s", "--ocsp", policy]
    }

    private func startResponder() throws {
        responder = try ca.startOCSPResponder(port: port, logPath: tmp.file("ocsp.log").path)
    }

    /// Under `required`, capture waits for the responder's word; the photo then carries it
    /// (c2pa-python sees the stapled answer). Revoked: every session is told, a recording under
    /// way ends unsigned, and nothing is signed any more.
    func testAGoodAnswerIsStapledAndARevocationStopsSigning() throws {
        let c = try client()
        let session = try c.openSession()
        if try c.get(session, "CaptureEnabled").boolValue != true {
            try c.waitForSignal("CaptureEnabled", path: session, timeout: 30)
        }
        try c.call(session, "StartCaptureSession")
        let name = try XCTUnwrap(c.call(session, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: session, timeout: 30) { $0.arguments.first?.stringValue == name }
        let photo = try XCTUnwrap(storedPhotos().first { $0.lastPathComponent == "\(name).jpg" })
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [ca.root])
        XCTAssertTrue((verdict.success + verdict.informational).contains("signingCredential.ocsp.notRevoked"),
                      "c2pa-rs did not read the stapled answer: \(verdict.success) \(verdict.informational)")

        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStarted", path: session)
        try ca.revoke(leafPEM)
        let failed = try c.waitForSignal("Failed", path: session, timeout: 30)
        XCTAssertEqual(failed.arguments.first?.stringValue, "org.lensd.Lens1.Error.Enrollment")
        XCTAssertTrue(failed.arguments.last?.stringValue?.contains("revoked") == true, "\(failed.arguments)")
        try c.waitForSignal("VideoRecordingStopped", path: session, timeout: 30)
        let unsigned = try c.waitForSignal("VideoUnsigned", path: session, timeout: 30)
        XCTAssertTrue(unsigned.arguments.last?.vardictValue?["reason"]?.stringValue?.contains("revoked") == true, "\(unsigned.arguments)")
        XCTAssertEqual(try c.get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "revoked")
        XCTAssertEqual(try c.get(session, "DisabledReasons").arrayValue?.compactMap(\.stringValue), ["enrollment"])
        try c.set(session, "CameraMode", .string("photo"))
        XCTAssertThrowsError(try c.call(session, "BeginCapture")) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "CaptureDisabled")
        }
        let status = try lensctl.expect(0, ["status"]).stdout
        XCTAssertTrue(status.contains("Enrollment: revoked"), status)
    }

    /// `when-online`: a responder that cannot be reached is logged and capture goes on (unstapled).
    func testAnUnreachableResponderOnlyMattersWhenRequired() throws {
        responder?.stop()
        policy = "when-online"
        try restartDaemon()
        let c = try client()
        let session = try c.openSession()
        XCTAssertEqual(try c.get(session, "CaptureEnabled").boolValue, true)
        try c.call(session, "StartCaptureSession")
        let name = try XCTUnwrap(c.call(session, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: session, timeout: 30) { $0.arguments.first?.stringValue == name }
        XCTAssertTrue(daemon.log.contains("OCSP: ") && daemon.log.contains("capture goes on"), daemon.log)

        // Required: the same silence keeps capture disabled, saying why.
        policy = "required"
        try restartDaemon()
        let again = try client()
        let waiting = try again.openSession()
        XCTAssertEqual(try again.get(waiting, "DisabledReasons").arrayValue?.compactMap(\.stringValue), ["enrollment"])
        let status = try lensctl.expect(0, ["status"]).stdout
        XCTAssertTrue(status.contains("ocsp = required"), status)
        // And the responder's answer enables it.
        try startResponder()
        try again.waitForSignal("CaptureEnabled", path: waiting, timeout: 30)
    }
}
