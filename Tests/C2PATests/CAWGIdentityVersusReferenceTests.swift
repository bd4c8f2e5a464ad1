import LensTestSupport
@testable import C2PA
@testable import C2PAEncoding
import Foundation
import XCTest

/// CAWG identity assertions as c2pa-rs validates them: X.509 identities and identity claims
/// aggregation credentials (a W3C VC in COSE, signed by a did:jwk issuer made for each file),
/// written here with c2pa-python and Tests/oracle/rewrite_manifest.py (hand-made CBOR and COSE),
/// each in the shapes c2pa-rs's own fixtures probe. Both verifiers must reach the same state and
/// the same failure codes; the CAWG codes of the active manifest are compared as well.
final class CAWGIdentityVersusReferenceTests: XCTestCase {
    var tmp: TemporaryDirectory!
    var pki: TestPKI!
    var signed: URL!

    /// Every CAWG code either side may report, success and informational ones included.
    static let codes: Set<String> = [
        CAWGStatus.icaUntrustedIssuer, CAWGStatus.icaCredentialValid, CAWGStatus.icaTimeStampValidated,
        CAWGStatus.x509SignatureValidated, CAWGStatus.wellFormed,
    ]

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
        signed = try ReferenceSigner.sign(input: try TestJPEG.make(at: tmp.file("vga.jpg")), output: tmp.file("signed.jpg"), pki: pki)
    }

    override func tearDown() {
        tmp = nil
    }

    /// A credential that checks out: its issuer is on no trusted list (informational), so the file
    /// stays Trusted; a changed byte in the credential is caught.
    func testClaimsAggregationCredential() throws {
        let file = try agree("{}", expect: "Trusted", "a sound credential")
        XCTAssertTrue(file.report.statuses.contains { $0.code == CAWGStatus.icaUntrustedIssuer }, "\(file.report.statuses.map(\.code))")
        XCTAssertTrue(file.report.manifests.first?.identities.first?.contains("issued by did:jwk:") == true)
        var copy = try JPEGTamper(file.url)
        copy.flip(at: copy.offset(of: "lensd-test")! + 2)
        try copy.write(to: tmp.file("tampered.jpg"))
        try assertVerifiersAgree(on: tmp.file("tampered.jpg"), anchors: [pki.root], expect: "Invalid", "credential byte",
                                 alsoComparing: Self.codes)
    }

    /// Each thing c2pa-rs checks of a credential, broken one at a time: every one is a cawg.ica.*
    /// failure, and the file Invalid.
    func testClaimsAggregationFailures() throws {
        let cases: [(String, String)] = [
            (#"{"signer": "stranger"}"#, "signed by another key than the issuer's"),
            (#"{"issuer": "did:web:lensd-test.invalid"}"#, "a did:web issuer (not resolved offline)"),
            (#"{"issuer": "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"}"#, "a did:key issuer (a method c2pa-rs does not resolve)"),
            (#"{"issuer": "urn:uuid:8f1c0e5a-1b7e-4d36-9b0d-0c1f1c2d3e4f"}"#, "an issuer that is no DID"),
            (#"{"issuer": "not a URI"}"#, "an issuer that is no URI"),
            (#"{"valid_from": null}"#, "no validFrom"),
            (#"{"valid_from": "future"}"#, "validFrom in the future"),
            (#"{"valid_until": "past"}"#, "validUntil past"),
            (#"{"valid_from": null, "valid_until": "past"}"#, "both bounds wrong"),
            (#"{"alg": -7}"#, "an ES256 COSE signature"),
            (#"{"tagged": false}"#, "a COSE_Sign1 without its tag"),
            (#"{"content_type": null}"#, "no content type"),
            (#"{"content_type": "application/json"}"#, "another content type"),
            (#"{"payload": "not-json"}"#, "a payload that is not JSON"),
            (#"{"asset_hash": "wrong"}"#, "c2paAsset differs from the signer payload"),
            (#"{"credential": {"credentialSubject": {"c2paAsset": {}}}}"#, "a subject without verified identities"),
        ]
        for (spec, context) in cases {
            try agree(spec, expect: "Invalid", context)
        }
    }

    /// The assertion and its signer payload: a failure there concerns the identity alone (the file
    /// stays Valid), except an assertion that does not read, which fails to load the manifest.
    func testSignerPayloadAndAssertion() throws {
        try agree("{}", shape: #"{"pad1": "01"}"#, expect: "Valid", "credential with a non-zero pad1")
        try agree("{}", shape: #"{"sig_type": "cawg.unknown"}"#, expect: "Valid", "an unknown signature type")
        try agree("{}", shape: #"{"reference_hash": "0011"}"#, expect: "Invalid", "credential over a hash the claim lacks")
        try agreeX509(shape: #"{"pad2": "0100"}"#, expect: "Valid", "X.509 with a non-zero pad2")
        try agreeX509(shape: #"{"reference_hash": "0011"}"#, expect: "Valid", "X.509 over a hash the claim lacks")
        let broken = try agreeX509(shape: #"{"rename": {"signer_payload": "not_the_signer_payload"}}"#, expect: "Invalid",
                                   "an identity assertion without signer_payload")
        XCTAssertTrue(broken.failures.contains { $0.code == StatusCode.assertionRequiredMissing && $0.explanation == "Failed to load manifest" })
    }

    // MARK: Helpers

    @discardableResult
    private func agree(_ spec: String, shape: String? = nil, expect: String, _ context: String,
                       line: UInt = #line) throws -> (url: URL, report: VerificationReport) {
        let file = try ManifestRewriter.rewrite(signed, into: tmp.file("ica.jpg"), pki: pki, [], claimsAggregation: spec,
                                                identityShape: shape)
        let report = try assertVerifiersAgree(on: file, anchors: [pki.root], expect: expect, context, alsoComparing: Self.codes,
                                              line: line)
        return (file, report)
    }

    @discardableResult
    private func agreeX509(shape: String, expect: String, _ context: String, line: UInt = #line) throws -> VerificationReport {
        let file = try ManifestRewriter.rewrite(signed, into: tmp.file("x509.jpg"), pki: pki, [], identity: true, identityShape: shape)
        return try assertVerifiersAgree(on: file, anchors: [pki.root], expect: expect, context, alsoComparing: Self.codes, line: line)
    }
}
