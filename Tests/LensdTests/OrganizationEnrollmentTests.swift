import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Issue 15: the device key on a real PKCS#11 token (SoftHSM 2), a certificate issued by an
/// organization's CA made with `openssl ca`, and c2pa-python as the judge of the photos.
final class OrganizationEnrollmentTests: LensdTestCase {
    private var token: SoftHSMToken!
    private var ca: OrganizationCA!

    override func prepare() throws {
        token = try SoftHSMToken(in: tmp.file("softhsm"), owner: "lensd")
        ca = try OrganizationCA(in: tmp.file("org-ca"))
    }

    /// Through pkcs11-spy, so that the token's side of every call is logged.
    override var daemonConfiguration: String { token.configuration(trustAnchor: ca.root, module: SoftHSMToken.spyModule) }
    override var daemonEnvironment: [String: String] { token.environment.merging(token.spyEnvironment) { $1 } }

    /// The C_Sign calls that reached the token.
    private func tokenSignatures() -> Int {
        let log = (try? String(contentsOf: token.spyLog, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.hasSuffix("C_Sign") }.count
    }

    private func assertRefused(_ chain: String, _ reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertThrowsError(try installCertificate(chain), file: file, line: line) { error in
            let busError = error as? BusError
            XCTAssertEqual(busError?.name, "org.lensd.Lens1.Error.InvalidArgument", "\(error)", file: file, line: line)
            XCTAssertTrue(busError?.message.contains(reason) == true, "\(busError?.message ?? "") lacks \(reason)", file: file, line: line)
        }
        XCTAssertEqual(try enrollmentState(), "missing", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.stateDirectory.appendingPathComponent("enrollment/chain.pem").path),
                       file: file, line: line)
    }

    /// CSR from the token key → `openssl ca` → InstallCertificate → a photo c2pa-python rates
    /// Trusted with the organization's root, which GetTrustAnchor now returns, and so is a video; the state
    /// directory holds no private key, and the token's key is sensitive and not extractable.
    func testTokenKeyEnrollsWithTheOrganizationCAAndSignsTrustedPhotos() throws {
        XCTAssertEqual(try enrollmentState(), "missing")
        let request = try certificateRequest()
        let text = try output(["openssl", "req", "-noout", "-text", "-verify"], input: request)
        XCTAssertTrue(text.contains("CN = cam-07") && text.contains("DNS:cam-07.example.org"), text)

        // pkcs11-tool, another PKCS#11 client, sees the key lensd made: it cannot leave the token.
        let listing = try token.privateKeyListing()
        XCTAssertTrue(listing.contains("label:      device") && listing.contains("sensitive") && listing.contains("never extractable"),
                      listing)
        XCTAssertEqual(tokenSignatures(), 1, "the request is signed by the token")

        let info = try installCertificate(try ca.issue(request))
        XCTAssertEqual(info["enrollmentState"]?.stringValue, "enrolled")
        XCTAssertEqual(try enrollmentState(), "enrolled")
        let c = try client()
        let anchor = try XCTUnwrap(try c.callManager("GetTrustAnchor").first?.stringValue)
        XCTAssertEqual(anchor, try String(contentsOf: ca.root, encoding: .utf8))

        let member = try peer(["open", "start", "capture", "wait:PhotoSigned"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        let photo = try XCTUnwrap(storedPhotos().first)
        try ReferenceValidator.assertTrusted(photo, anchors: [ca.root])
        XCTAssertGreaterThan(tokenSignatures(), 1, "the photo's claim is signed by the token")
        let signedBeforeVideo = tokenSignatures()

        let video = outbox.appendingPathComponent("video.mp4")
        let recorder = try peer(["open", "video", "start", "record", "recorded:1.5", "stoprec", "wait:VideoSigned:60",
                                 "fetch:\(video.path)"], as: TestUsers.member)
        XCTAssertEqual(try recorder.finish(), 0, "\(recorder.lines)")
        try ReferenceValidator.assertTrusted(video, anchors: [ca.root])
        XCTAssertGreaterThan(tokenSignatures(), signedBeforeVideo, "the video's claim is signed by the token")

        // Nothing in lensd's state directory is a private key.
        XCTAssertEqual(privateKeyFiles(), [])
        // A restart reads the installed chain and the token key again.
        try restartDaemon()
        XCTAssertEqual(try enrollmentState(), "enrolled")
    }

    /// Each refusal is InvalidArgument with the reason, and nothing changes.
    func testInstallCertificateRefusesWhatDoesNotFit() throws {
        let request = try certificateRequest()
        let otherKey = tmp.file("other.key").path
        let otherRequest = try output(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                       "-keyout", otherKey, "-subj", "/CN=someone else"], input: "")
        try assertRefused(try ca.issue(otherRequest), "does not belong")
        let otherCA = try OrganizationCA(in: tmp.file("other-ca"), name: "Elsewhere")
        try assertRefused(try otherCA.issue(request), "does not lead to the trust anchor")
        try assertRefused(try ca.issue(request, extensions: "no_eku"), "extended key usage")
        try assertRefused(try ca.issue(request, startDate: "20200101000000Z", endDate: "20210101000000Z"), "expired")
        try assertRefused("not a certificate", "not PEM")
    }

    /// Only root may ask for a request or install a chain.
    func testMembersAreNotAuthorizedToEnroll() throws {
        let request = try lensctl.expect(4, ["enroll", "request"], as: TestUsers.member)
        XCTAssertTrue(request.stderr.contains("CreateCertificateRequest is for root only"), request.stderr)
        let chain = tmp.file("chain.pem")
        try "x".write(to: chain, atomically: true, encoding: .utf8)
        try OrganizationCA.run(["chmod", "0644", chain.path])
        let install = try lensctl.expect(4, ["enroll", "install", chain.path], as: TestUsers.member)
        XCTAssertTrue(install.stderr.contains("InstallCertificate is for root only"), install.stderr)
    }

    /// lensctl as root: request, install what `openssl ca` issued, status.
    func testLensctlEnrollsTheDevice() throws {
        let json = try lensctl.expect(0, ["enroll", "request", "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "enroll")
        let request = try lensctl.expect(0, ["enroll", "request", "--subject", "O=Example News,CN=cam-08"])
        XCTAssertTrue(request.stdout.hasPrefix("-----BEGIN CERTIFICATE REQUEST-----"), request.stdout)
        let chain = tmp.file("chain.pem")
        try ca.issue(request.stdout).write(to: chain, atomically: true, encoding: .utf8)
        let installed = try lensctl.expect(0, ["enroll", "install", chain.path])
        XCTAssertTrue(installed.stdout.contains("installed CN=cam-08") || installed.stdout.contains("O=Example News, CN=cam-08"),
                      installed.stdout)
        XCTAssertTrue(try lensctl.expect(0, ["enroll", "status"]).stdout.hasPrefix("enrollment: enrolled, certificate valid until"))
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["enroll", "status", "--json"]).stdout, schema: "enroll")
        // Installing the same chain again is allowed (it certifies the same key) and reports the same.
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["enroll", "install", chain.path, "--json"]).stdout, schema: "enroll")
    }

    /// A wrong PIN leaves capture disabled for `enrollment`, with the token's refusal in the reason.
    func testWrongPINDisablesCaptureWithAClearReason() throws {
        try token.writePIN("0000", owner: "lensd")
        try restartDaemon()
        XCTAssertEqual(try enrollmentState(), "invalid")
        let status = try lensctl.expect(0, ["status"], as: TestUsers.member)
        XCTAssertTrue(status.stdout.contains("enrollment"), status.stdout)
        XCTAssertTrue(daemon.log.contains("refused the PIN in \(token.pinFile.path) (CKR_PIN_INCORRECT)"), daemon.log)
    }
}
