import FoundationEssentials

/// A CAWG identity signed with an X.509 certificate (`cawg.x509.cose`): the COSE signature over the
/// signer payload is checked like a claim signature and reported under CAWG's codes, as c2pa-rs
/// remaps them. c2pa-rs judges identity credentials against a CAWG trust list kept apart from the
/// C2PA one; lensd has none, so an X.509 identity is at best valid, never trusted.
struct X509IdentitySignature {
    static let signatureType = "cawg.x509.cose"

    /// The claim-signature codes the check emits, and their CAWG names (c2pa-rs x509_status_remap).
    private static let remapped: [String: String] = [
        StatusCode.algorithmUnsupported: CAWGStatus.x509AlgorithmUnsupported,
        StatusCode.signingCredentialUntrusted: CAWGStatus.x509CredentialUntrusted,
        StatusCode.signingCredentialInvalid: CAWGStatus.x509CredentialInvalid,
        StatusCode.signingCredentialExpired: CAWGStatus.x509OutsideValidity,
        StatusCode.claimSignatureMismatch: CAWGStatus.x509SignatureMismatch,
    ]

    let now: Date

    /// One line for the report: the signer and the verdict.
    func check(_ assertion: IdentityAssertion, url: String, log: inout StatusLog) -> String {
        var own = StatusLog()
        let signer = SignatureCheck(trust: TrustPolicy(), now: now).check(cose: assertion.signature,
                                                                         payload: assertion.signerPayload.signedBytes, url: url, log: &own)
        for status in own.statuses {
            guard let code = Self.remapped[status.code] else { continue }
            log.add(status.kind, code, status.explanation, url: url)
        }
        let valid = own.statuses.contains { $0.code == StatusCode.claimSignatureValidated }
        if valid {
            log.add(.success, CAWGStatus.x509SignatureValidated, "X.509 identity assertion signature validated", url: url)
            log.add(.success, CAWGStatus.wellFormed, "CAWG X.509 identity signature valid", url: url)
        }
        let who = signer.map { $0.subject.oneLine } ?? "unknown signer"
        return "\(Self.signatureType): \(who) (\(valid ? "signature valid; no CAWG trust list" : "invalid"))"
    }
}
