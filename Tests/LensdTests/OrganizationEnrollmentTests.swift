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
        // Installing the same chain again is allowed (it certifies the same key) and reports the same.
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["enroll", "install", chain.path, "--json"]).stdout, schema: "enroll")
    }
}
