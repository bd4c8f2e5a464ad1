import LensCrypto

/// The COSE signature algorithms lensd signs and verifies (ECDSA on the NIST curves).
public enum SigningAlgorithm: String, Sendable, CaseIterable {
    case es256, es384, es512

    /// The same algorithm as the verifier names it.
    public var cose: COSEAlgorithm {
        switch self {
        case .es256: .es256
        case .es384: .es384
        case .es512: .es512
        }
    }

    /// COSE algorithm identifiers (RFC 9053).
    public var coseIdentifier: Int { cose.coseIdentifier }

    public var digest: DigestAlgorithm {
        switch self {
        case .es256: return .sha256
        case .es384: return .sha384
        case .es512: return .sha512
        }
    }

    public var curve: EllipticCurve {
        switch self {
        case .es256: return .p256
        case .es384: return .p384
        case .es512: return .p521
        }
    }

    /// Size of the IEEE P1363 r‖s signature.
    public var signatureSize: Int { 2 * curve.coordinateSize }

    public init?(curve: EllipticCurve) {
        guard let match = Self.allCases.first(where: { $0.curve == curve }) else { return nil }
        self = match
    }
}
