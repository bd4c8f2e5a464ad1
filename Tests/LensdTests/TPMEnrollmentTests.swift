import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Issue 15: the device key made inside a TPM 2.0 (swtpm, started by the test) through OpenSSL's
/// tpm2 provider, certified by an organization's CA made with `openssl ca`.
final class TPMEnrollmentTests: LensdTestCase {
    private var tpm: SoftwareTPM!
    private var ca: OrganizationCA!

    override func prepare() throws {
        tpm = try SoftwareTPM(directory: tmp.file("swtpm"))
        ca = try OrganizationCA(in: tmp.file("org-ca"))
    }

    override func tearDown() {
        super.tearDown()
        tpm?.stop()
        tpm = nil
    }

    override var daemonConfiguration: String { "enrollment = org\norg-trust-anchor = \(ca.root.path)\nkey = tpm2:\n" }
    override var daemonEnvironment: [String: String] { tpm.environment }

    /// CSR signed inside the TPM → `openssl ca` → InstallCertificate → a Trusted photo. lensd
    /// keeps only the TPM's wrapped blob, and without the TPM it cannot sign at all.
    func testTPMKeyEnrollsAndSignsOnlyWithTheTPM() throws {
        XCTAssertEqual(try enrollmentState(), "missing")
        let request = try certificateRequest()
        _ = try output(["openssl", "req", "-noout", "-verify"], input: request)
        XCTAssertEqual(try installCertificate(try ca.issue(request))["enrollmentState"]?.stringValue, "enrolled")

        let member = try peer(["open", "start", "capture", "wait:PhotoSigned"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        try ReferenceValidator.assertTrusted(try XCTUnwrap(storedPhotos().first), anchors: [ca.root])

        XCTAssertEqual(privateKeyFiles(), [])
        let blob = try String(contentsOf: daemon.stateDirectory.appendingPathComponent("enrollment/device.tpm2"), encoding: .utf8)
        XCTAssertTrue(blob.hasPrefix("-----BEGIN TSS2 PRIVATE KEY-----"), blob)

        // With the TPM gone, the same key cannot sign: the signature was the TPM's work.
        tpm.stop()
        let refused = try peer(["open", "start", "capture", "wait:Failed"], as: TestUsers.member)
        XCTAssertEqual(try refused.finish(), 0, "\(refused.lines)")
        XCTAssertTrue(refused.lines.contains { $0.hasPrefix("signal Failed") && $0.contains("ImageSigningFailed") }, "\(refused.lines)")
        XCTAssertEqual(storedPhotos().count, 1)
    }
}
