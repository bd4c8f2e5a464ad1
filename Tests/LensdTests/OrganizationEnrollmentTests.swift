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
    }
}
