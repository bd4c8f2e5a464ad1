import Foundation
import LensBus
import LensContract
import LensTestSupport
import XCTest

/// Issue 15 in process: the device key on a real PKCS#11 token (SoftHSM 2, through OpenSC's
/// pkcs11-spy, which logs every call that reaches the token), a certificate issued by an
/// organization's CA made with `openssl ca`, and c2pa-python as the judge of the photos.
///
/// lensd loads a PKCS#11 module once per path for the life of its process, and SoftHSM reads
/// SOFTHSM2_CONF when it is initialised: each test copies both modules to paths of its own, so
/// its lensd gets a fresh module and its own token, as a fresh lensd process would. The lensctl
/// commands stay on the bus (OrganizationEnrollmentTests).
final class OrganizationEnrollmentFlowTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var token: SoftHSMToken!
    private var ca: OrganizationCA!
    private let environment = ProcessEnvironment()
    private var configuration: URL!
    private var lensd: DaemonHarness!

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-org-enrollment-flow")
        token = try SoftHSMToken(in: tmp.file("softhsm"), owner: "lensd")
        ca = try OrganizationCA(in: tmp.file("org-ca"))
        let softhsm = tmp.file("libsofthsm2-copy.so"), spy = tmp.file("pkcs11-spy-copy.so")
        for (module, copy) in [(SoftHSMToken.module, softhsm), (SoftHSMToken.spyModule, spy)] {
            try FileManager.default.copyItem(at: URL(fileURLWithPath: module).resolvingSymlinksInPath(), to: copy)
        }
        environment.set(token.environment.merging(["PKCS11SPY": softhsm.path, "PKCS11SPY_OUTPUT": token.spyLog.path]) { $1 }
            .mapValues { $0 })
        configuration = tmp.file("lensd.conf")
        try token.configuration(trustAnchor: ca.root, module: spy.path).write(to: configuration, atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        defer { environment.restore() }
        try lensd?.shutDown()
        lensd = nil
    }

    /// lensd on the token, with a state directory that outlives it (a restart reads it again).
    private func startDaemon() throws {
        try lensd?.shutDown()
        lensd = try DaemonHarness(["--config", configuration.path, "--state-dir", tmp.file("state").path])
    }

    private func enrollmentState() throws -> String? { try lensd.client().managerProperty("EnrollmentState").stringValue }

    private func certificateRequest() throws -> String {
        let reply = try lensd.client().callManager("CreateCertificateRequest", [.vardict([
            "commonName": .string("cam-07"), "organization": .string("Example News"),
            "dnsNames": .array(elementSignature: "s", [.string("cam-07.example.org")]),
        ])])
        return try XCTUnwrap(reply.first?.stringValue)
    }

    private func installCertificate(_ chain: String) throws -> [String: BusValue] {
        let reply = try lensd.client().callManager("InstallCertificate", [.string(chain)])
        return try XCTUnwrap(reply.first?.vardictValue, "InstallCertificate answered \(reply)")
    }

    /// The C_Sign calls that reached the token.
    private func tokenSignatures() -> Int {
        let log = (try? String(contentsOf: token.spyLog, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.hasSuffix("C_Sign") }.count
    }

    /// stdout of `argv`; a failure is thrown with its stderr.
    private func output(_ argv: [String]) throws -> String {
        let r = try runProcess(argv)
        guard r.status == 0 else { throw TestToolError("\(argv[0]): \(String(decoding: r.stderr, as: UTF8.self))") }
        return String(decoding: r.stdout, as: UTF8.self)
    }

    private func assertRefused(_ chain: String, _ reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertThrowsError(try installCertificate(chain), file: file, line: line) { error in
            XCTAssertEqual((error as? BusError)?.name, "\(Lens1.errorPrefix)InvalidArgument", "\(error)", file: file, line: line)
            XCTAssertTrue((error as? BusError)?.message.contains(reason) == true, "\(error) lacks \(reason)", file: file, line: line)
        }
        XCTAssertEqual(try enrollmentState(), "missing", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("state/enrollment/chain.pem").path), file: file, line: line)
    }

    /// CSR from the token key → `openssl ca` → InstallCertificate → a photo c2pa-python rates
    /// Trusted with the organization's root, which GetTrustAnchor now returns, and so is a video; the state
    /// directory holds no private key, and the token's key is sensitive and not extractable.
    func testTokenKeyEnrollsWithTheOrganizationCAAndSignsTrustedPhotos() throws {
        try startDaemon()
        XCTAssertEqual(try enrollmentState(), "missing")
        let request = try certificateRequest()
        let requestFile = tmp.file("request.pem")
        try request.write(to: requestFile, atomically: true, encoding: .utf8)
        let text = try output(["openssl", "req", "-noout", "-text", "-verify", "-in", requestFile.path])
        XCTAssertTrue(text.contains("CN = cam-07") && text.contains("DNS:cam-07.example.org"), text)

        // pkcs11-tool, another PKCS#11 client, sees the key lensd made: it cannot leave the token.
        let listing = try token.privateKeyListing()
        XCTAssertTrue(listing.contains("label:      device") && listing.contains("sensitive") && listing.contains("never extractable"),
                      listing)
        XCTAssertEqual(tokenSignatures(), 1, "the request is signed by the token")

        let chain = try ca.issue(request)
        // Valid from the real now, which the daemon's clock must have reached.
        lensd.advanceClockToRealTime()
        let info = try installCertificate(chain)
        XCTAssertEqual(info["enrollmentState"]?.stringValue, "enrolled")
        XCTAssertEqual(try enrollmentState(), "enrolled")
        let anchor = try XCTUnwrap(try lensd.client().callManager("GetTrustAnchor").first?.stringValue)
        XCTAssertEqual(anchor, try String(contentsOf: ca.root, encoding: .utf8))

        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        let session = try member.claimedSession()
        let photo = try XCTUnwrap(lensd.stateFiles.photo(named: try member.photo(in: session).name))
        try ReferenceValidator.assertTrusted(photo, anchors: [ca.root])
        XCTAssertGreaterThan(tokenSignatures(), 1, "the photo's claim is signed by the token")
        let signedBeforeVideo = tokenSignatures()

        let video = tmp.file("video.mp4")
        try member.fetchResult(try member.recordVideo(in: session, seconds: 1.5).name, in: session, to: video)
        try ReferenceValidator.assertTrusted(video, anchors: [ca.root])
        XCTAssertGreaterThan(tokenSignatures(), signedBeforeVideo, "the video's claim is signed by the token")

        // Nothing in lensd's state directory is a private key.
        XCTAssertEqual(lensd.stateFiles.privateKeyFiles, [])
        // A restart reads the installed chain and the token key again.
        member.disconnect()
        try startDaemon()
        XCTAssertEqual(try enrollmentState(), "enrolled")
    }

    /// Each refusal is InvalidArgument with the reason, and nothing changes.
    func testInstallCertificateRefusesWhatDoesNotFit() throws {
        try startDaemon()
        let request = try certificateRequest()
        let otherRequest = try output(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                       "-keyout", tmp.file("other.key").path, "-subj", "/CN=someone else"])
        try assertRefused(try ca.issue(otherRequest), "does not belong")
        let otherCA = try OrganizationCA(in: tmp.file("other-ca"), name: "Elsewhere")
        try assertRefused(try otherCA.issue(request), "does not lead to the trust anchor")
        try assertRefused(try ca.issue(request, extensions: "no_eku"), "extended key usage")
        try assertRefused(try ca.issue(request, startDate: "20200101000000Z", endDate: "20210101000000Z"), "expired")
        try assertRefused("not a certificate", "not PEM")
    }

    /// `certificate-profile = c2pa-al1`: a leaf the plain C2PA profile issued is refused with every
    /// AL1 item it misses named, nothing changing; a leaf issued to the AL1 profile is installed.
    func testTheCertificateProfileRefusesALeafBelowIt() throws {
        try (String(contentsOf: configuration, encoding: .utf8) + "\ncertificate-profile = c2pa-al1\n")
            .write(to: configuration, atomically: true, encoding: .utf8)
        try startDaemon()
        let request = try certificateRequest()
        try assertRefused(try ca.issue(request), "does not meet certificate-profile = c2pa-al1: it lacks subject C, O and CN; "
                          + "critical keyUsage digitalSignature and nonRepudiation; certificatePolicies 1.3.6.1.4.1.62558.1.1; "
                          + "authorityInfoAccess with an OCSP URI; assurance level 1.3.6.1.4.1.62558.3.10; CPL record ID")
        let al1Request = try XCTUnwrap(try lensd.client().callManager("CreateCertificateRequest", [.vardict([
            "commonName": .string("cam-07"), "organization": .string("Example News"), "country": .string("DE"),
        ])]).first?.stringValue)
        let al1Chain = try ca.issue(al1Request, extensions: "c2pa_al1")
        lensd.advanceClockToRealTime()  // the leaf is valid from the real now
        _ = try installCertificate(al1Chain)
        XCTAssertEqual(try enrollmentState(), "enrolled")
    }

    /// A wrong PIN leaves capture disabled for `enrollment` with the token's refusal as the reason
    /// (what `lensctl status` shows, and lensd logs at start-up).
    func testWrongPINDisablesCaptureWithAClearReason() throws {
        try token.writePIN("0000", owner: "lensd")
        try startDaemon()
        XCTAssertEqual(try enrollmentState(), "invalid")
        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        let session = try member.openSession()
        XCTAssertEqual(try member.disabledReasons(session), ["enrollment"])
        let details = "\(try member.get(session, "DisabledReasonDetails"))"
        XCTAssertTrue(details.contains("refused the PIN in \(token.pinFile.path) (CKR_PIN_INCORRECT)"), details)
    }
}
