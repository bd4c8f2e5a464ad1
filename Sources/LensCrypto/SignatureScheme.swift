/// How a signature is made, as far as verifying it needs to know: COSE's ECDSA (raw r‖s),
/// RSASSA-PSS (salt as long as the digest, MGF1 with the same digest, RFC 8230) and Ed25519.
public enum SignatureScheme: Sendable, Equatable {
    case ecdsa(DigestAlgorithm)
    case rsaPSS(DigestAlgorithm)
    case ed25519

    /// RSA keys shorter than this are refused, as C2PA (§14.5.1) and c2pa-rs refuse them.
    public static let minimumRSABits = 2048

    /// Whether `key` is of the kind this scheme verifies with (any EC curve for ECDSA; the
    /// curve-to-algorithm rule is C2PA's, checked by its certificate profile).
    public func accepts(_ key: PublicKey) -> Bool {
        switch self {
        case .ecdsa: return key.curve != nil
        case .rsaPSS: return key.isRSA && key.bits >= Self.minimumRSABits
        case .ed25519: return key.typeName == "ED25519"
        }
    }
}
