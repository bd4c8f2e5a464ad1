import Foundation
import LensBus
import LensContract
import LensIdentity
import LensTestSupport
import XCTest

/// lensd in process asking its CA's OCSP responder about its own certificate: OpenSSL's real
/// responder (`openssl ocsp -port`) answering from the CA's index, the certificate a key and
/// chain the organization's CA issued (key, chain, trust-anchor). The ocsp-interval (1 s) and
/// the backoff run on the loop's clock, which the tests move; `lensctl status` stays on the bus.
final class RevocationFlowTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var ca: OrganizationCA!
    private var leafPEM = ""
    private var port: UInt16 = 0
    private var responder: ServerProcess?
    private var lensd: DaemonHarness!
    private var log: CapturedLog?

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-revocation-flow")
        ca = try OrganizationCA(in: tmp.file("org-ca"))
        let leaf = try ca.issueLeaf(commonName: "cam-07")
        leafPEM = leaf.certificate
        // The daemon's own user (here the test's) owns its key, readable by no one else.
        FileManager.default.createFile(atPath: tmp.file("device.key").path, contents: Data(leaf.key.utf8),
                                       attributes: [.posixPermissions: 0o600])
        try leafPEM.write(to: tmp.file("chain.pem"), atomically: true, encoding: .utf8)
        port = try GpsdSockets.freePort()
        try startResponder()
    }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        defer {
            responder?.stop()
            log?.restore(printing: (testRun?.totalFailureCount ?? 0) > 0)
        }
        try lensd?.shutDown()
        lensd = nil
    }

    /// Each start logs to a file of its own: the responder is ready when its own log says so.
    private func startResponder() throws {
        responder?.stop()
        responder = try ca.startOCSPResponder(port: port, logPath: tmp.file("ocsp-\(UUID().uuidString.prefix(8)).log").path)
    }

    private func startDaemon(policy: String) throws {
        try lensd?.shutDown()
        lensd = try DaemonHarness(["--key", tmp.file("device.key").path, "--chain", tmp.file("chain.pem").path,
                                   "--trust-anchor", ca.root.path, "--ocsp-url", "http://127.0.0.1:\(port)/",
                                   "--ocsp-interval", "1s", "--ocsp", policy])
    }

    private func details(_ c: HarnessClient, _ session: String) -> String {
        "\((try? c.get(session, "DisabledReasonDetails")) ?? .string(""))"
    }

    /// Under `required`, capture waits for the responder's word; the photo then carries it
    /// (c2pa-python sees the stapled answer). Revoked: every session is told, a recording under
    /// way ends unsigned, and nothing is signed any more.
    func testAGoodAnswerIsStapledAndARevocationStopsSigning() throws {
        try startDaemon(policy: "required")
        let c = lensd.client()
        let session = try c.openSession()
        if try c.get(session, "CaptureEnabled").boolValue != true {
            try c.waitForSignal("CaptureEnabled", path: session)
        }
        try c.call(session, "StartCaptureSession")
        let photo = try XCTUnwrap(lensd.stateFiles.photo(named: try c.photo(in: session).name))
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [ca.root])
        XCTAssertTrue((verdict.success + verdict.informational).contains("signingCredential.ocsp.notRevoked"),
                      "c2pa-rs did not read the stapled answer: \(verdict.success) \(verdict.informational)")

        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStarted", path: session)
        try c.waitUntilRecorded(session, seconds: 0.1)
        try ca.revoke(leafPEM)
        // `openssl ocsp` reads a changed index only after it has served the next request (the bus
        // test's responder answers the revocation one interval later); restarted, it answers
        // from the new index at once — the next question, one ocsp-interval on.
        try startResponder()
        lensd.loop.advance(by: .seconds(1))
        let failed = try c.waitForSignal("Failed", path: session)
        XCTAssertEqual(failed.arguments.first?.stringValue, "\(Lens1.errorPrefix)Enrollment")
        XCTAssertTrue(failed.arguments.last?.stringValue?.contains("revoked") == true, "\(failed.arguments)")
        try c.waitForSignal("VideoRecordingStopped", path: session)
        let unsigned = try c.waitForSignal("VideoUnsigned", path: session)
        XCTAssertTrue(unsigned.arguments.last?.vardictValue?["reason"]?.stringValue?.contains("revoked") == true, "\(unsigned.arguments)")
        XCTAssertEqual(try c.managerProperty("EnrollmentState").stringValue, "revoked")
        XCTAssertEqual(try c.disabledReasons(session), ["enrollment"])
        try c.set(session, "CameraMode", .string("photo"))
        XCTAssertThrowsError(try c.call(session, "BeginCapture")) { XCTAssertEqual($0.shortName, "CaptureDisabled") }
    }

    /// `when-online`: a responder that cannot be reached is logged and capture goes on (unstapled).
    func testAnUnreachableResponderOnlyMattersWhenRequired() throws {
        let log = try CapturedLog(in: tmp)
        self.log = log
        responder?.stop()
        try startDaemon(policy: "when-online")
        let c = lensd.client()
        let session = try c.openSession()
        XCTAssertEqual(try c.get(session, "CaptureEnabled").boolValue, true)
        try c.call(session, "StartCaptureSession")
        _ = try c.photo(in: session)
        try lensd.loop.run(until: { log.text.contains("OCSP: ") && log.text.contains("capture goes on") }, "the unanswered question logged")

        // Required: the same silence keeps capture disabled, saying why (as `lensctl status` shows it).
        try startDaemon(policy: "required")
        let again = lensd.client()
        let waiting = try again.openSession()
        XCTAssertEqual(try again.disabledReasons(waiting), ["enrollment"])
        XCTAssertTrue(details(again, waiting).contains("ocsp = required"), details(again, waiting))
        // The first question has gone unanswered: the next is on the clock.
        try lensd.loop.run(until: { details(again, waiting).contains("unknown") }, "the first OCSP question failed")
        // And the responder's answer enables it.
        try startResponder()
        lensd.loop.advance(by: .seconds(1))
        try again.waitForSignal("CaptureEnabled", path: waiting)
    }
}
