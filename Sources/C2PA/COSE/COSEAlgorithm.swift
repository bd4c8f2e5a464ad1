import LensCrypto

/// Every COSE signature algorithm C2PA lists (spec 2.2 §13.2), as a verifier reads them.
/// lensd signs with the ECDSA ones only (`SigningAlgorithm`).
public enum COSEAlgorithm: String, Sendable, CaseIterable {
    case es256, es384, es512, ps256, ps384, ps512, ed25519

    /// COSE algorithm identifiers (RFC 9053, RFC 8230).
    public var coseIdentifier: Int {
        switch self {
        case .es256: -7
        case .es384: -35
        case .es512: -36
        case .ps256: -37
        case .ps384: -38
        case .ps512: -39
        case .ed25519: -8
        }
    }

    public init?(coseIdentifier: Int) {
        guard let match = Self.allCases.first(where: { $0.coseIdentifier == coseIdentifier }) else { return nil }
        self = match
    }

    public var scheme: SignatureScheme {
        switch self {
        case .es256: .ecdsa(.sha256)
        case .es384: .ecdsa(.sha384)
        case .es512: .ecdsa(.sha512)
        case .ps256: .rsaPSS(.sha256)
        case .ps384: .rsaPSS(.sha384)
        case .ps512: .rsaPSS(.sha512)
        case .ed25519: .ed25519
        }
    }

    /// The curve an ECDSA algorithm requires of the signer's key; nil for the others.
    public var curve: EllipticCurve? {
        switch self {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        case .ps256, .ps384, .ps512, .ed25519: nil
        }
    }

    /// Whether the signer's key is the one this algorithm needs.
    func matches(_ key: PublicKey) -> Bool {
        guard scheme.accepts(key) else { return false }
        return curve == nil || key.curve == curve
    }
}
