import LensCrypto

/// The COSE signature algorithms lensd signs and verifies (ECDSA on the NIST curves).
public enum SigningAlgorithm: String, Sendable, CaseIterable {
    case es256, es384, es512

    /// COSE algorithm identifiers (RFC 9053).
    public var coseIdentifier: Int {
        switch self {
        case .es256: return -7
        case .es384: return -35
        case .es512: return -36
        }
    }

    public init?(coseIdentifier: Int) {
        guard let match = Self.allCases.first(where: { $0.coseIdentifier == coseIdentifier }) else { return nil }
        self = match
    }

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
