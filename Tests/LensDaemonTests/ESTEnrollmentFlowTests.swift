import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Issue 30 in process with a software key (ESTFlowTestCase: the stand-in EST server and the
/// daemon's clock).
final class ESTEnrollmentFlowTests: ESTFlowTestCase {
    private var deviceKey: Data? { FileManager.default.contents(atPath: tmp.file("state/enrollment/device.key").path) }

    private var installedChain: Bool { FileManager.default.fileExists(atPath: tmp.file("state/enrollment/chain.pem").path) }

    /// First start: enrolled with no manual step; a photo signed by the EST-issued serial; at
    /// renew-before lensd re-enrolls by itself with a new key and photos carry the new serial; a
    /// recording spanning the switch is signed by one certificate, the renewed one; a restart
    /// keeps the renewed certificate and asks the server nothing.
    func testEnrollsByItselfRenewsWithANewKeyAndKeepsTheRenewalAcrossARestart() throws {
        try startDaemon()
        try waitUntilEnrolled()
        XCTAssertEqual(server.count("simpleenroll"), 1)
        XCTAssertGreaterThanOrEqual(server.count("cacerts"), 1)
        let first = try XCTUnwrap(server.issuedSerials.first)
        XCTAssertEqual(try trustedPhotoSerial(), first)
        XCTAssertNil(try estState()["last_error"])
        let renewAfter = try XCTUnwrap(try root.managerProperty("CertificateRenewAfter").uint64Value)
        XCTAssertEqual(try estState()["next_attempt"]?.uint64Value, renewAfter, "the next attempt is the renewal")
        let firstKey = try XCTUnwrap(deviceKey)

        // A recording under way while the certificate changes.
        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        let session = try member.claimedSession()
        try member.set(session, "CameraMode", .string("video"))
        try member.call(session, "StartVideoCapture")

        // 5-minute certificates, renew-before 270 s: due 30 s after issue.
        let started = Date()
        try followRealTime("the renewal") {
            self.server.issuedSerials.count == 2 && (try? self.root.managerProperty("CertificateRenewAfter").uint64Value) != renewAfter
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 90)
        XCTAssertNil(try estState()["last_error"])
        XCTAssertEqual(try member.get(session, "IsRecordingVideo").boolValue, true, "the recording went on through the renewal")
        try member.call(session, "StopVideoCapture")
        let recorded = try member.waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        let video = tmp.file("spanning.mp4")
        try member.fetchResult(try XCTUnwrap(recorded.arguments.first?.stringValue), in: session, to: video)
        let videoVerdict = try ReferenceValidator.assertTrusted(video, anchors: [server.ca.root])
        // Signed once, at its end, by the certificate current then: the renewed one.
        XCTAssertEqual(videoVerdict.signatureInfo?.certSerialNumber, server.issuedSerials[1])
        member.disconnect()
        XCTAssertEqual(server.requests.filter { $0.operation == "simplereenroll" }.map(\.status), [200])
        XCTAssertEqual(server.count("simpleenroll"), 1, "the renewal is authenticated by the certificate, not the credential")
        XCTAssertEqual(try enrollmentState(), "enrolled")
        let second = server.issuedSerials[1]
        XCTAssertNotEqual(second, first)
        XCTAssertEqual(try trustedPhotoSerial(), second)
        XCTAssertNotEqual(deviceKey, firstKey, "the renewal made a new key")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("state/enrollment/device.next.key").path))

        try startDaemon()
        lensd.loop.run()
        XCTAssertEqual(try enrollmentState(), "enrolled")
        XCTAssertEqual(try trustedPhotoSerial(), second)
        XCTAssertEqual(server.count("simpleenroll"), 1)
        XCTAssertEqual(server.count("simplereenroll"), 1)
        XCTAssertNil(try estState()["last_attempt"], "nothing to ask before the renewal is due")
    }

    /// A credential the server refuses: lensd stays up with capture disabled for `enrollment`,
    /// ESTState names the 401, and the next attempt waits for the backoff (10 s, then 20 s).
    func testARefusedCredentialDisablesCaptureAndIsRetriedOnlyAfterTheBackoff() throws {
        try startDaemon(credential: "camera-07:wrong")
        let state = try waitForError("HTTP 401")
        XCTAssertEqual(try enrollmentState(), "missing")
        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        let session = try member.openSession()
        XCTAssertEqual(try member.disabledReasons(session), ["enrollment"])
        let last = try XCTUnwrap(state["last_attempt"]?.uint64Value), next = try XCTUnwrap(state["next_attempt"]?.uint64Value)
        XCTAssertEqual(next - last, 10)
        XCTAssertEqual(server.count("simpleenroll"), 1)

        lensd.loop.advance(by: .seconds(9))
        XCTAssertEqual(try estState()["last_attempt"]?.uint64Value, last, "no attempt before the backoff ends")
        lensd.loop.advance(by: .seconds(1))
        try lensd.loop.run(until: { self.server.count("simpleenroll") == 2 && (try? self.estState()["next_attempt"]) != nil },
                           "the second attempt")
        let again = try estState()
        XCTAssertEqual(try XCTUnwrap(again["next_attempt"]?.uint64Value) - (try XCTUnwrap(again["last_attempt"]?.uint64Value)), 20)
        XCTAssertTrue(again["last_error"]?.stringValue?.contains("HTTP 401") == true, "\(again)")
        XCTAssertFalse(installedChain)
    }

    /// The server down when the renewal is due: capture goes on with the current certificate,
    /// the failure is reported, and the renewal succeeds once the server is back.
    func testCaptureGoesOnWhileTheServerIsDownAtRenewal() throws {
        try startDaemon()
        try waitUntilEnrolled()
        let first = try XCTUnwrap(server.issuedSerials.first)
        let port = server.port
        server.stop()
        try followRealTime("the renewal attempt") { (try? self.estState()["last_error"]?.stringValue)??.contains("unreachable") == true }
        XCTAssertEqual(try enrollmentState(), "enrolled")
        XCTAssertEqual(try trustedPhotoSerial(), first)

        try server.start(port: port)
        try followRealTime("the renewal once the server is back") {
            self.server.issuedSerials.count == 2 && (try? self.estState()["last_error"]) == nil
        }
        XCTAssertEqual(try trustedPhotoSerial(), server.issuedSerials[1])
    }

    /// /cacerts not leading to org-trust-anchor, a TLS certificate not from est-ca, a leaf issued
    /// for another key, a chain not leading to the anchor, the CA's refusal, a credential file
    /// others can read: each refused and named; nothing is installed.
    func testAnswersThatDoNotFitAreRefusedAndNothingIsInstalled() throws {
        try server.set(.foreignCACertificates)
        try startDaemon()
        _ = try waitForError("/cacerts: O=Elsewhere, CN=Elsewhere Root CA does not lead to org-trust-anchor")
        XCTAssertEqual(server.count("simpleenroll"), 0, "no request goes to a CA lensd cannot trust")

        try server.set(.ok)
        try startDaemon(estCA: server.unrelatedTLSRoot)
        _ = try waitForError("TLS with the EST server failed")
        XCTAssertEqual(server.count("simpleenroll"), 0)

        try server.set(.otherKey)
        try startDaemon()
        _ = try waitForError("does not belong")
        XCTAssertEqual(server.count("simpleenroll"), 1)

        try server.set(.foreignIssuer)
        try startDaemon()
        _ = try waitForError("does not lead to the trust anchor")
        XCTAssertEqual(server.count("simpleenroll"), 2)

        // The CA's refusal, with the first line of its answer.
        try server.set(.error)
        try startDaemon()
        _ = try waitForError("the EST server refused the request (HTTP 500): CA offline for maintenance")

        // A credential others may read is not sent.
        try server.set(.ok)
        try startDaemon(credentialMode: 0o644)
        _ = try waitForError("est-credential-file \(tmp.file("est-credential").path) must be owned by root and unreadable by other users")
        XCTAssertEqual(server.count("simpleenroll"), 2)

        XCTAssertEqual(try enrollmentState(), "missing")
        XCTAssertFalse(installedChain)
    }
}
