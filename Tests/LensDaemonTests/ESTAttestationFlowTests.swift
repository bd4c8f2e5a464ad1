import C2PA
import Foundation
import LensCore
import LensCrypto
import LensIdentity
import LensTestSupport
import XCTest

/// Issue 30's AL2 evidence: with `key = tpm2:` lensd's EST request carries a TPM2_Certify of the
/// device key by the TPM's attestation key, with the AK and EK certificates
/// (draft-ietf-lamps-csr-attestation), and the stand-in EST CA (est_server.py --ek-ca,
/// tpm_evidence.py) issues the C2PA Conformance Program's AL2 leaf only when that verifies
/// against the TPM maker's CA. The TPM is swtpm as swtpm_setup manufactures it, given an AK as a
/// maker provisions one (AttestingTPM), reached through tpm2-abrmd.
final class ESTAttestationFlowTests: ESTFlowTestCase {
    private let environment = ProcessEnvironment()
    private var tpm: AttestingTPM!

    override func setUpWithError() throws {
        tpm = try AttestingTPM.shared.get()
        environment.set(tpm.environment.mapValues { $0 })
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        defer { environment.restore() }
        try super.tearDownWithError()
    }

    override var ekCA: URL? { tpm.ekCA }
    override var keyArguments: [String] { ["--key", "tpm2:", "--certificate-profile", "c2pa-al2"] }

    private var installedLeaf: Certificate? {
        (try? String(contentsOf: tmp.file("state/enrollment/chain.pem"), encoding: .utf8)).flatMap { try? Certificate.parsePEM($0).first }
    }

    /// lensd enrolls by itself; its request's evidence verifies; the leaf meets AL2 (and so lensd,
    /// under certificate-profile = c2pa-al2, installed it); a photo signed with it is Trusted.
    func testTheTPMEvidenceVerifiesAndTheCAIssuesAL2() throws {
        try startDaemon()
        try waitUntilEnrolled()
        XCTAssertEqual(server.evidenceVerdicts, ["verified"])
        let issued = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(issued.level, "al2")
        let leaf = try XCTUnwrap(installedLeaf)
        XCTAssertEqual(ConformanceLeafProfile.al2.missing(in: leaf), [])
        XCTAssertEqual(try trustedPhotoSerial(), issued.serial)
        XCTAssertEqual(lensd.stateFiles.privateKeyFiles, [], "the key stays in the TPM")
    }

    /// Requests for a TPM key made here, signed by it and sent as lensd sends them: with its
    /// evidence intact the CA issues AL2; with one byte changed in the attestation, its
    /// signature, the key's public area or the AK certificate, or with no evidence, AL1 — each
    /// named — and, when the CA requires AL2, a refusal.
    func testTamperedOrAbsentEvidenceGetsNoAL2() throws {
        let key = try TPMKey.generate()
        let evidence = try TPMAttestation.certify(blob: key.blob)
        XCTAssertNotNil(evidence.endorsementCertificate, "the EK certificate goes along")
        let client = ESTClient(baseURL: server.url, caFile: server.tlsRoot.path)
        func enroll(_ evidence: TPMKeyEvidence?) throws -> [Certificate] {
            let attributes = try evidence.map { [(oid: TPMKeyEvidence.attributeOID, value: try $0.evidenceBundle())] } ?? []
            let request = try CertificateRequest.makeDER(subject: DistinguishedName(commonName: "camera 07"), dnsNames: [], key: key.key,
                                                         attributes: attributes)
            return try client.enroll(request, credential: Self.credential)
        }
        func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
            var changed = bytes
            changed[index] ^= 0x01
            return changed
        }

        XCTAssertEqual(ConformanceLeafProfile.al2.missing(in: try XCTUnwrap(try enroll(evidence).first)), [])
        var tampered: [(TPMKeyEvidence, String)] = []
        var attest = evidence, signature = evidence, area = evidence, certificate = evidence
        attest.attest = flipped(evidence.attest, at: evidence.attest.count - 40)
        tampered.append((attest, "the attestation's signature does not verify with the attestation key"))
        signature.signature = flipped(evidence.signature, at: evidence.signature.count - 1)
        tampered.append((signature, "the attestation's signature does not verify with the attestation key"))
        area.keyPublicArea = flipped(evidence.keyPublicArea, at: evidence.keyPublicArea.count - 1)
        tampered.append((area, "the attestation certifies another key"))
        let akDER = evidence.attestationCertificate.der
        certificate.attestationCertificate = try Certificate(der: flipped(akDER, at: akDER.count - 1))
        tampered.append((certificate, "no AK certificate in the evidence leads to the TPM maker's CA"))
        for (changed, why) in tampered {
            let leaf = try XCTUnwrap(try enroll(changed).first)
            XCTAssertEqual(server.evidenceVerdicts.last, why)
            XCTAssertEqual(ConformanceLeafProfile.al1.missing(in: leaf), [])
            XCTAssertEqual(ConformanceLeafProfile.al2.missing(in: leaf), ["assurance level 1.3.6.1.4.1.62558.3.20"])
        }
        let plain = try XCTUnwrap(try enroll(nil).first)
        XCTAssertEqual(server.evidenceVerdicts.last, "the request carries no attestation evidence")
        XCTAssertEqual(ConformanceLeafProfile.al2.missing(in: plain), ["assurance level 1.3.6.1.4.1.62558.3.20"])
        XCTAssertEqual(server.requests.map(\.level), ["al2", "al1", "al1", "al1", "al1", "al1"])

        try server.set(.requireAL2)
        XCTAssertThrowsError(try enroll(tampered[0].0)) { error in
            XCTAssertTrue("\(error)".contains("HTTP 403): assurance level 2 refused: the attestation's signature does not verify"), "\(error)")
        }
        XCTAssertEqual(ConformanceLeafProfile.al2.missing(in: try XCTUnwrap(try enroll(evidence).first)), [])
    }

    /// A CA that issues AL1 whatever the evidence: under certificate-profile = c2pa-al2 lensd
    /// refuses the leaf, naming what it lacks, and installs nothing.
    func testUnderAL2ANonAL2LeafIsRefused() throws {
        try server.set(.ignoreEvidence)
        try startDaemon()
        _ = try waitForError("does not meet certificate-profile = c2pa-al2: it lacks assurance level 1.3.6.1.4.1.62558.3.20")
        XCTAssertEqual(server.requests.last?.level, "al1")
        XCTAssertEqual(try enrollmentState(), "missing")
        XCTAssertNil(installedLeaf)
    }
}
