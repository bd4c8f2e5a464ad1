import C2PA
import Foundation
import LensCrypto
import LensTestSupport
import XCTest

/// The Conformance Program's claim-signing leaf profiles, item by item, on certificates an
/// organization CA (`openssl ca`) issues: one with every AL1 item meets AL1 and misses only
/// AL2's; the plain C2PA profile lensd's enrollment docs ask for misses what only a Trust List
/// CA adds; each item left out is named.
final class ConformanceLeafProfileTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var ca: OrganizationCA!

    override func setUpWithError() throws {
        directory = try temporaryDirectory(prefix: "lensd-leaf-profile")
        ca = try OrganizationCA(in: directory.file("ca"))
    }

    private func leaf(extensions: String, country: String? = "DE", days: Int? = nil) throws -> Certificate {
        try Certificate.parsePEM(try ca.issueLeaf(commonName: "cam 1", extensions: extensions, country: country, days: days).certificate)[0]
    }

    func testAnAL1LeafMeetsAL1AndMissesOnlyAL2sItems() throws {
        let certificate = try leaf(extensions: "c2pa_al1")
        XCTAssertEqual(ConformanceLeafProfile.al1.missing(in: certificate), [])
        // openssl ca's default_days 365: over AL2's 90; and the value says AL1.
        XCTAssertEqual(ConformanceLeafProfile.al2.missing(in: certificate),
                       ["assurance level 1.3.6.1.4.1.62558.3.20", "validity of at most 90 days"])
    }

    /// The extensions `lensctl enroll request --profile` tells the CA to issue, placeholders
    /// filled, given to `openssl ca` with the profile's longest validity: the leaf meets the profile.
    func testTheCAExtensionsOfAProfileIssueALeafThatMeetsIt() throws {
        for profile in ConformanceLeafProfile.allCases {
            let section = profile.caExtensions.joined(separator: "\n")
                .replacing(ConformanceLeafProfile.ocspURLPlaceholder, with: "http://ocsp.example.org/")
                .replacing(ConformanceLeafProfile.cplRecordPlaceholder, with: "0f8fad5b-d9cb-469f-a165-70867728950e")
            try ca.addExtensions("issued_\(profile)", section)
            XCTAssertEqual(profile.missing(in: try leaf(extensions: "issued_\(profile)", days: profile.maximumValidityDays)), [],
                           "\(profile)")
        }
    }

    func testThePlainC2PAProfileMissesWhatOnlyATrustListCAAdds() throws {
        XCTAssertEqual(ConformanceLeafProfile.al1.missing(in: try leaf(extensions: "c2pa", country: nil)), [
            "subject C, O and CN", "critical keyUsage digitalSignature and nonRepudiation",
            "certificatePolicies 1.3.6.1.4.1.62558.1.1", "authorityInfoAccess with an OCSP URI",
            "assurance level 1.3.6.1.4.1.62558.3.10", "CPL record ID 1.3.6.1.4.1.62558.4",
        ])
    }

    /// lensd's own leaf (the `c2paSigner` profile, as self-enrollment issues it) meets the items it
    /// can meet alone and claims no assurance level.
    func testTheSelfIssuedProfileMeetsWhatItCanAlone() throws {
        let key = try PrivateKey.generate(.p256)
        let now = Date()
        let root = try CertificateIssuer.issue(subject: DistinguishedName(commonName: "device CA"), subjectKey: key.publicKey,
                                               profile: .rootCA, notBefore: now, notAfter: now + 86_400, issuer: nil, selfSigningKey: key)
        let device = try CertificateIssuer.issue(
            subject: DistinguishedName(country: "XX", organization: "lensd", commonName: "cam"), subjectKey: key.publicKey,
            profile: .c2paSigner, notBefore: now, notAfter: now + 366 * 86_400, issuer: (root, key))
        XCTAssertEqual(ConformanceLeafProfile.al1.missing(in: device), [
            "certificatePolicies 1.3.6.1.4.1.62558.1.1", "authorityInfoAccess with an OCSP URI",
            "assurance level 1.3.6.1.4.1.62558.3.10", "CPL record ID 1.3.6.1.4.1.62558.4",
        ])
    }
}
