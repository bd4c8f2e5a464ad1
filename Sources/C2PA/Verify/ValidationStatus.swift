/// The C2PA validation status codes lensd reports (spec §15, names as c2pa-rs prints them).
public enum StatusCode {
    public static let claimSignatureValidated = "claimSignature.validated"
    public static let claimSignatureMismatch = "claimSignature.mismatch"
    public static let claimSignatureMissing = "claimSignature.missing"
    public static let claimSignatureInsideValidity = "claimSignature.insideValidity"
    public static let signingCredentialTrusted = "signingCredential.trusted"
    public static let signingCredentialUntrusted = "signingCredential.untrusted"
    public static let signingCredentialInvalid = "signingCredential.invalid"
    public static let signingCredentialExpired = "signingCredential.expired"
    public static let ocspNotRevoked = "signingCredential.ocsp.notRevoked"
    public static let ocspRevoked = "signingCredential.ocsp.revoked"
    public static let ocspUnknown = "signingCredential.ocsp.unknown"
    public static let ocspSkipped = "signingCredential.ocsp.skipped"
    public static let actionMalformed = "assertion.action.malformed"
    public static let actionIngredientMismatch = "assertion.action.ingredientMismatch"
    public static let actionRedactionMismatch = "assertion.action.redactionMismatch"
    public static let assertionNotRedacted = "assertion.notRedacted"
    public static let claimMalformed = "claim.malformed"
    public static let hardBindingsMissing = "claim.hardBindings.missing"
    public static let hardBindingsMultiple = "claim.hardBindings.multiple"
    public static let updateManifestInvalid = "manifest.update.invalid"
    public static let hashedURIMatch = "assertion.hashedURI.match"
    public static let hashedURIMismatch = "assertion.hashedURI.mismatch"
    public static let assertionMissing = "assertion.missing"
    public static let dataHashMatch = "assertion.dataHash.match"
    public static let dataHashMismatch = "assertion.dataHash.mismatch"
    public static let dataHashMalformed = "assertion.dataHash.malformed"
    public static let bmffHashMatch = "assertion.bmffHash.match"
    public static let bmffHashMismatch = "assertion.bmffHash.mismatch"
    public static let bmffHashMalformed = "assertion.bmffHash.malformed"
    public static let boxesHashMismatch = "assertion.boxesHash.mismatch"
    public static let algorithmUnsupported = "algorithm.unsupported"
    public static let timeStampValidated = "timeStamp.validated"
    public static let timeStampTrusted = "timeStamp.trusted"
    public static let timeStampUntrusted = "timeStamp.untrusted"
    public static let timeStampMismatch = "timeStamp.mismatch"
    public static let timeStampMalformed = "timeStamp.malformed"
    public static let assertionTimeStampMalformed = "assertion.timestamp.malformed"
    public static let ingredientManifestValidated = "ingredient.manifest.validated"
    public static let ingredientManifestMismatch = "ingredient.manifest.mismatch"
    public static let ingredientManifestMissing = "ingredient.manifest.missing"
    public static let ingredientMalformed = "assertion.ingredient.malformed"
    public static let generalError = "general.error"
    public static let assertionRequiredMissing = "assertion.required.missing"
    public static let dataHashAdditionalExclusions = "assertion.dataHash.additionalExclusionsPresent"
    public static let bmffHashAdditionalExclusions = "assertion.bmffHash.additionalExclusionsPresent"
}

public struct ValidationStatus: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case success, informational, failure }

    public var code: String
    public var explanation: String
    public var url: String?
    public var kind: Kind

    public init(_ kind: Kind, _ code: String, _ explanation: String, url: String? = nil) {
        self.kind = kind
        self.code = code
        self.explanation = explanation
        self.url = url
    }
}

public enum ValidationState: String, Sendable, Codable {
    case trusted = "Trusted"
    case valid = "Valid"
    case invalid = "Invalid"

    /// c2pa-rs's rule: Valid needs a validated signature inside its validity and no failure but an
    /// untrusted signer, in the active manifest or any ingredient's; Trusted is Valid with a
    /// trusted signer and no failure at all. A CAWG X.509 identity's (or its signer payload's) failure
    /// concerns that identity: it keeps the file from Trusted, not from Valid (`CAWGStatus`).
    init(statuses: [ValidationStatus], ingredientFailures: [ValidationStatus] = []) {
        let codes = Set(statuses.map(\.code))
        let failures = Set((statuses.filter { $0.kind == .failure } + ingredientFailures).map(\.code))
        let intolerable = failures.filter { $0 != StatusCode.signingCredentialUntrusted && !CAWGStatus.isToleratedFailure($0) }
        guard codes.contains(StatusCode.claimSignatureValidated),
              codes.contains(StatusCode.claimSignatureInsideValidity),
              intolerable.isEmpty
        else { self = .invalid; return }
        self = failures.isEmpty && codes.contains(StatusCode.signingCredentialTrusted) ? .trusted : .valid
    }
}
