import C2PA
import Foundation
import LensBus
import LensContract
import LensCrypto
import LensIdentity
import LensTestSupport
import XCTest

/// Issue 29's first proof, in process: lensd under `certificate-profile = c2pa-al1`, enrolled
/// with an organization's CA (`openssl ca`) that issues the Conformance Program's AL1 claim-signing
/// leaf, whose authorityInfoAccess names the CA's real OCSP responder (`openssl ocsp -port`), and a
/// real RFC 3161 TSA (`openssl ts -reply`); both `timestamp` and `ocsp` required. Its photos and
/// videos are judged by the program's own 2.4 rubric, by c2pa-python, and by lensd's verifier.
final class ConformanceAL1FlowTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var ca: OrganizationCA!
    private var tsa: LocalTSA!
    private var responderPort: UInt16 = 0
    private var responder: ServerProcess?
    private var lensd: DaemonHarness!

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-conformance-al1")
        responderPort = try GpsdSockets.freePort()
        ca = try OrganizationCA(in: tmp.file("org-ca"), al1OCSPURL: "http://127.0.0.1:\(responderPort)/")
        tsa = try LocalTSA(directory: tmp.file("tsa"))
    }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        defer {
            responder?.stop()
            tsa = nil
        }
        try lensd?.shutDown()
        lensd = nil
    }

    /// lensd enrolling with the CA under `profile`; no ocsp-url: the leaf names its responder.
    private func startDaemon(profile: String) throws {
        lensd = try DaemonHarness(["--enrollment", "org", "--org-trust-anchor", ca.root.path, "--certificate-profile", profile,
                                   "--ocsp", "required", "--tsa-url", tsa.url, "--tsa-trust-anchor", tsa.root.path,
                                   "--timestamp", "required"])
    }

    /// CreateCertificateRequest with the AL1 subject (C, O, CN), issued by the CA's `extensions` section.
    private func issuedChain(extensions: String) throws -> String {
        let request = try XCTUnwrap(try lensd.client().callManager("CreateCertificateRequest", [.vardict([
            "commonName": .string("cam-07"), "organization": .string("Example News"), "country": .string("DE"),
        ])]).first?.stringValue)
        return try ca.issue(request, extensions: extensions)
    }

    private func installCertificate(_ chain: String) throws {
        lensd.advanceClockToRealTime()  // the leaf is valid from the real now
        _ = try lensd.client().callManager("InstallCertificate", [.string(chain)])
    }

    func testAnAL1EnrolledLensdSignsConformantTimeStampedStapledPhotosAndVideos() throws {
        try startDaemon(profile: "c2pa-al1")
        let chain = try issuedChain(extensions: "c2pa_al1")
        // `openssl ocsp` reads the CA's index when it starts: the leaf is in it by now.
        responder = try ca.startOCSPResponder(port: responderPort, logPath: tmp.file("ocsp.log").path)
        try installCertificate(chain)
        let installed = try XCTUnwrap(try Certificate.parsePEM(chain).first)
        XCTAssertEqual(try lensd.client().managerProperty("EnrollmentState").stringValue, "enrolled")

        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        let session = try member.openSession()
        // Capture waits for the responder's "good" and a TSA's answer.
        try lensd.loop.run(until: { (try? member.get(session, "CaptureEnabled").boolValue) == true },
                           "capture enabled by OCSP and the TSA: \((try? member.get(session, "DisabledReasonDetails")) ?? .string(""))")
        try member.call(session, "StartCaptureSession")
        let (photoName, photoInfo) = try member.photo(in: session)
        XCTAssertEqual(photoInfo["timestamped"]?.boolValue, true)
        let photo = try XCTUnwrap(lensd.stateFiles.photo(named: photoName))
        let video = tmp.file("video.mp4")
        let (videoName, videoInfo) = try member.recordVideo(in: session, seconds: 1)
        XCTAssertEqual(videoInfo["timestamped"]?.boolValue, true)
        try member.fetchResult(videoName, in: session, to: video)

        for file in [photo, video] {
            try assertConformantAL1(file, signedBy: installed)
        }
    }

    /// Every proof of the issue's first "must show" item, for one file.
    private func assertConformantAL1(_ file: URL, signedBy installed: Certificate, line: UInt = #line) throws {
        let anchors = [ca.root, tsa.root]
        let name = file.lastPathComponent
        // The program's 2.4 asset rubric: all 31 statements (the synthetic camera claims no capture).
        try ConformanceRubric.assertConformant(file, anchors: anchors, capturedMedia: false, line: line)

        // c2pa-rs: Trusted, a trusted time-stamp, and the stapled OCSP answer read.
        let verdict = try ReferenceValidator.assertTrusted(file, anchors: anchors, line: line)
        let codes = verdict.success + verdict.informational
        XCTAssertTrue(codes.contains("timeStamp.trusted"), "\(name): \(codes)", line: line)
        XCTAssertTrue(codes.contains("signingCredential.ocsp.notRevoked"), "\(name): \(codes)", line: line)

        // The certificate the signature carries is the installed AL1 leaf, and it meets AL1.
        let report = try Verifier(trustAnchors: [try XCTUnwrap(Certificate.parsePEM(String(contentsOf: ca.root, encoding: .utf8)).first)],
                                  timeStampAnchors: try Certificate.parsePEM(String(contentsOf: tsa.root, encoding: .utf8)))
            .verify(fileAt: file.path)
        let leaf = try XCTUnwrap(report.signerChain?.first, name, line: line)
        XCTAssertEqual(leaf, installed, name, line: line)
        XCTAssertEqual(ConformanceLeafProfile.al1.missing(in: leaf), [], name, line: line)
        XCTAssertEqual(report.state, .trusted, "\(name): \(report.failures)", line: line)
        XCTAssertNotNil(report.signer?.timeStamp, "\(name): lensd's verifier found no trusted time-stamp", line: line)
        XCTAssertNotNil(report.signer?.revocation, "\(name): lensd's verifier found no stapled OCSP answer", line: line)
    }

    /// Under c2pa-al1 a leaf that lacks one AL1 item (the assurance-level extension) is refused,
    /// the item named and nothing installed; under c2pa-al2 the AL1 leaf itself is refused.
    func testALeafMissingOneProfileItemIsRefused() throws {
        let withoutLevel = OrganizationCA.al1Extensions(ocspURL: "http://127.0.0.1:9/").split(separator: "\n")
            .filter { !$0.hasPrefix("1.3.6.1.4.1.62558.3 ") }.joined(separator: "\n")
        try ca.addExtensions("al1_without_level", withoutLevel)
        try startDaemon(profile: "c2pa-al1")
        try assertRefused(try issuedChain(extensions: "al1_without_level"),
                          "does not meet certificate-profile = c2pa-al1: it lacks assurance level 1.3.6.1.4.1.62558.3.10")

        try lensd.shutDown()
        lensd = nil
        try startDaemon(profile: "c2pa-al2")
        try assertRefused(try issuedChain(extensions: "c2pa_al1"), "does not meet certificate-profile = c2pa-al2: it lacks "
                          + "assurance level 1.3.6.1.4.1.62558.3.20; validity of at most 90 days")
    }

    private func assertRefused(_ chain: String, _ reason: String, line: UInt = #line) throws {
        XCTAssertThrowsError(try installCertificate(chain), line: line) { error in
            XCTAssertEqual((error as? BusError)?.name, "\(Lens1.errorPrefix)InvalidArgument", "\(error)", line: line)
            XCTAssertTrue((error as? BusError)?.message.hasSuffix(reason) == true, "\(error) lacks \(reason)", line: line)
        }
        XCTAssertEqual(try lensd.client().managerProperty("EnrollmentState").stringValue, "missing", line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: lensd.tmp.file("state/enrollment/chain.pem").path), line: line)
    }
}
