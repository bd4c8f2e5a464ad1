/// The CAWG identity assertion's status codes (CAWG identity 1.1 §8, named as c2pa-rs 0.91 logs them).
enum CAWGStatus {
    // The assertion and its signer payload.
    static let padInvalid = "cawg.identity.pad.invalid"
    static let assertionMismatch = "cawg.identity.assertion.mismatch"
    static let hardBindingMissing = "cawg.identity.hard_binding_missing"
    static let assertionDuplicate = "cawg.identity.assertion.duplicate"
    static let signatureTypeUnknown = "cawg.identity.sig_type.unknown"
    static let wellFormed = "cawg.identity.well-formed"

    // X.509 signatures (c2pa-rs's x509_status_remap of the claim-signature codes).
    static let x509SignatureValidated = "cawg.x509.signature.validated"
    static let x509SignatureMismatch = "cawg.x509.signature.mismatch"
    static let x509AlgorithmUnsupported = "cawg.x509.algorithm.unsupported"
    static let x509CredentialUntrusted = "cawg.x509.credential.untrusted"
    static let x509CredentialInvalid = "cawg.x509.credential.invalid"
    static let x509OutsideValidity = "cawg.x509.signature.outsideValidity"

    // Identity claims aggregation: a W3C verifiable credential secured with COSE.
    static let icaInvalidCOSESign1 = "cawg.ica.invalid_cose_sign1"
    static let icaInvalidAlgorithm = "cawg.ica.invalid_alg"
    static let icaInvalidContentType = "cawg.ica.invalid_content_type"
    static let icaInvalidCredential = "cawg.ica.invalid_verifiable_credential"
    static let icaInvalidIssuer = "cawg.ica.invalid_issuer"
    static let icaDIDUnavailable = "cawg.ica.did_unavailable"
    static let icaInvalidDIDDocument = "cawg.ica.invalid_did_document"
    static let icaSignatureMismatch = "cawg.ica.signature_mismatch"
    static let icaUntrustedIssuer = "cawg.ica.untrusted_issuer"
    static let icaTimeStampValidated = "cawg.ica.time_stamp.validated"
    static let icaTimeStampInvalid = "cawg.ica.time_stamp.invalid"
    static let icaValidFromMissing = "cawg.ica.valid_from.missing"
    static let icaValidFromInvalid = "cawg.ica.valid_from.invalid"
    static let icaValidUntilInvalid = "cawg.ica.valid_until.invalid"
    static let icaSignerPayloadMismatch = "cawg.ica.signer_payload.mismatch"
    static let icaCredentialValid = "cawg.ica.credential_valid"

    /// Failures that concern one identity, never the manifest's validity (as c2pa-rs 0.91.3 rates
    /// them: an X.509 identity's or its payload's failure leaves the file Valid; an identity claims
    /// aggregation failure, `cawg.ica.*`, makes it Invalid).
    static func isToleratedFailure(_ code: String) -> Bool {
        code.hasPrefix("cawg.x509.") || code.hasPrefix("cawg.identity.")
    }
}
