import Foundation
import LensTestSupport
import XCTest

/// Issue 15 through lensctl: `enroll request`, `install` and `status` with the device key on a
/// real PKCS#11 token (SoftHSM 2) and a certificate issued by an organization's CA made with
/// `openssl ca`, and who may run them. The enrollment flow itself (the token's key, the refusals,
/// c2pa-python's verdict) runs in process (LensDaemonTests' OrganizationEnrollmentFlowTests).
final class OrganizationEnrollmentTests: LensdTestCase {
    private var token: SoftHSMToken!
    private var ca: OrganizationCA!

    override func prepare() throws {
        token = try SoftHSMToken(in: tmp.file("softhsm"), owner: "lensd")
        ca = try OrganizationCA(in: tmp.file("org-ca"))
    }

    override var daemonConfiguration: String { token.configuration(trustAnchor: ca.root) }
    override var daemonEnvironment: [String: String] { token.environment }

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
        // No certificate yet: nothing to judge.
        let before = try lensctl.expect(0, ["enroll", "status", "--json"]).stdout
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(before.utf8)) as? NSDictionary,
                       ["enrollment_state": "missing", "renewal_due": false], before)
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
        let status = try lensctl.expect(0, ["enroll", "status", "--json"]).stdout
        try JSONSchemaCheck.assertValid(status, schema: "enroll")
        let profile = (try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])?["profile"] as? [String: Any]
        XCTAssertEqual((profile?["c2pa-al1"] as? [String: Any])?["met"] as? Bool, false, status)
        // The plain C2PA profile misses what only a Trust List CA adds, and says so item by item.
        XCTAssertTrue(installed.stdout.contains("c2pa-al1 profile: not met: subject C, O and CN; critical keyUsage digitalSignature"
            + " and nonRepudiation; certificatePolicies 1.3.6.1.4.1.62558.1.1;"), installed.stdout)
        // Installing the same chain again is allowed (it certifies the same key) and reports the same.
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["enroll", "install", chain.path, "--json"]).stdout, schema: "enroll")
    }

    /// A leaf the CA issued to the AL1 profile (subject C, O, CN; nonRepudiation; the policy, OCSP
    /// URI, assurance level and CPL record): `enroll install` says it meets AL1 and what AL2 wants more.
    func testEnrollInstallSaysWhichConformanceProfilesTheLeafMeets() throws {
        let request = try lensctl.expect(0, ["enroll", "request", "--subject", "C=DE,O=Example News,CN=cam-09"])
        let chain = tmp.file("al1.pem")
        try ca.issue(request.stdout, extensions: "c2pa_al1").write(to: chain, atomically: true, encoding: .utf8)
        let json = try lensctl.expect(0, ["enroll", "install", chain.path, "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "enroll")
        let profile = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["profile"] as? [String: Any])
        let al1 = try XCTUnwrap(profile["c2pa-al1"] as? [String: Any]), al2 = try XCTUnwrap(profile["c2pa-al2"] as? [String: Any])
        XCTAssertEqual(al1["met"] as? Bool, true, json)
        XCTAssertEqual(al1["missing"] as? [String], [])
        XCTAssertEqual(al2["met"] as? Bool, false)
        XCTAssertEqual(al2["missing"] as? [String], ["assurance level 1.3.6.1.4.1.62558.3.20", "validity of at most 90 days"])
        XCTAssertTrue(try lensctl.expect(0, ["enroll", "install", chain.path]).stdout.contains("c2pa-al1 profile: met\n"))

        // `enroll status` judges the installed certificate the same way, read back from lensd.
        let status = try lensctl.expect(0, ["enroll", "status", "--json"]).stdout
        try JSONSchemaCheck.assertValid(status, schema: "enroll")
        let statusObject = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])
        XCTAssertEqual(statusObject["profile"] as? NSDictionary, profile as NSDictionary, status)
        let text = try lensctl.expect(0, ["enroll", "status"]).stdout
        XCTAssertTrue(text.contains("\nc2pa-al1 profile: met\nc2pa-al2 profile: not met: assurance level 1.3.6.1.4.1.62558.3.20; "
                                    + "validity of at most 90 days\n"), text)
    }

    /// `enroll request --profile c2pa-al1` wants the profile's subject and says, on stderr, what
    /// the CA must issue: that block, its two placeholders filled, is all `openssl ca` needs for
    /// a leaf that meets AL1.
    func testEnrollRequestWithAProfileSaysWhatTheCAMustIssue() throws {
        let incomplete = try lensctl.expect(2, ["enroll", "request", "--profile", "c2pa-al1", "--subject", "O=Example News,CN=cam-10"])
        XCTAssertTrue(incomplete.stderr.contains("--profile c2pa-al1 needs --subject with C=, O= and CN="), incomplete.stderr)
        XCTAssertTrue(incomplete.stderr.hasSuffix("it lacks C\n"), incomplete.stderr)

        let request = try lensctl.expect(0, ["enroll", "request", "--profile", "c2pa-al1", "--subject", "C=DE,O=Example News,CN=cam-10"])
        XCTAssertTrue(request.stdout.hasPrefix("-----BEGIN CERTIFICATE REQUEST-----"), request.stdout)
        XCTAssertTrue(request.stderr.hasPrefix("c2pa-al1: the CA must issue the leaf with these extensions (an openssl ca -extensions "
                                               + "section) and a validity of at most 366 days:\n  [c2pa_al1]\n"), request.stderr)
        let section = request.stderr.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains(" = ") }
            .joined(separator: "\n")
            .replacing("OCSP-RESPONDER-URL", with: "http://ocsp.example.org/")
            .replacing("CPL-RECORD-UUID", with: "0f8fad5b-d9cb-469f-a165-70867728950e")
        try ca.addExtensions("as_printed", section)
        let chain = tmp.file("printed.pem")
        try ca.issue(request.stdout, extensions: "as_printed").write(to: chain, atomically: true, encoding: .utf8)
        XCTAssertTrue(try lensctl.expect(0, ["enroll", "install", chain.path]).stdout.contains("c2pa-al1 profile: met\n"))

        let json = try lensctl.expect(0, ["enroll", "request", "--profile", "c2pa-al2", "--subject", "C=DE,O=Example News,CN=cam-10",
                                          "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "enroll")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object["validity_days"] as? Int, 90)
        XCTAssertTrue((object["ca_extensions"] as? [String])?.contains("1.3.6.1.4.1.62558.3 = ASN1:OID:1.3.6.1.4.1.62558.3.20") == true,
                      json)
        XCTAssertEqual(try lensctl.expect(2, ["enroll", "request", "--profile", "c2pa-rs"]).stderr,
                       "lensctl: --profile takes c2pa-al1 or c2pa-al2, not c2pa-rs\n")
    }
}
