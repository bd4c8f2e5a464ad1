import LensCrypto

/// The C2PA signing-certificate profile (spec 2.2 §14.5.1) as c2pa-rs 0.91 applies it: the one
/// rule for lensd's verifier and for the certificate lensd signs with, so that lensd signs only
/// with a certificate its own verifier, and c2pa-rs, accept.
public enum SigningCertificateProfile {
    /// A rule the leaf breaks. c2pa-rs checks the certificate's profile before its trust: a leaf
    /// outside the profile is not evaluated for trust at all, while one its EKU policy refuses is
    /// both invalid and untrusted.
    public struct Violation: Error, CustomStringConvertible, Sendable {
        public let description: String
        /// Whether a verifier still evaluates the chain's trust (the EKU policy, not the profile).
        public let trustIsEvaluated: Bool
    }

    /// c2pa-rs's reader accepts a leaf with one of these EKUs (`has_allowed_eku`); documentSigning
    /// and c2pa-kp-claimSigning alone are "certificate missing required EKU".
    public static let readerExtendedKeyUsages: Set<String> = [
        ExtendedKeyUsage.emailProtection, ExtendedKeyUsage.timeStamping, ExtendedKeyUsage.ocspSigning,
    ]
    /// A time-stamping or OCSP-signing certificate may have no other EKU.
    static let exclusiveExtendedKeyUsages = [ExtendedKeyUsage.timeStamping, ExtendedKeyUsage.ocspSigning]

    /// Certificate signature algorithms C2PA allows (OpenSSL long names); SHA-1 and MD5 are out.
    static let allowedCertificateSignatures: Set<String> = [
        "sha256WithRSAEncryption", "sha384WithRSAEncryption", "sha512WithRSAEncryption",
        "ecdsa-with-SHA256", "ecdsa-with-SHA384", "ecdsa-with-SHA512", "rsassaPss", "ED25519",
    ]

    /// The first rule `leaf` breaks, or nil. `allowedExtendedKeyUsages`: the leaf needs one of
    /// them (c2pa-rs swaps in OCSPSigning alone for a stapled OCSP response's responder).
    public static func violation(_ leaf: Certificate,
                                 allowedExtendedKeyUsages: Set<String> = readerExtendedKeyUsages) -> Violation? {
        if let reason = profileViolation(leaf) { return Violation(description: reason, trustIsEvaluated: false) }
        if let reason = extendedKeyUsageViolation(leaf, allowed: allowedExtendedKeyUsages) {
            return Violation(description: reason, trustIsEvaluated: true)
        }
        return nil
    }

    private static func profileViolation(_ leaf: Certificate) -> String? {
        if leaf.version != 3 { return "certificate is not X.509 v3" }
        if leaf.isCA == true { return "signing certificate is a CA" }
        guard let usage = leaf.keyUsage else { return "certificate has no key usage" }
        if !usage.contains(.digitalSignature) && !usage.contains(.nonRepudiation) {
            return "key usage lacks digitalSignature"
        }
        if usage.contains(.keyCertSign) { return "a signing certificate may not have keyCertSign" }
        if !leaf.hasAuthorityKeyIdentifier { return "certificate has no authority key identifier" }
        let usages = leaf.extendedKeyUsage ?? []
        if let exclusive = usages.first(where: exclusiveExtendedKeyUsages.contains), usages.count > 1 {
            return "extended key usage \(exclusive) may not be combined with others"
        }
        if leaf.hasUnknownCriticalExtension { return "certificate has an unknown critical extension" }
        if !allowedCertificateSignatures.contains(leaf.signatureAlgorithm) { return "certificate algorithm not supported" }
        if leaf.publicKey.isRSA && leaf.publicKey.bits < SignatureScheme.minimumRSABits { return "certificate key length too short" }
        return nil
    }

    private static func extendedKeyUsageViolation(_ leaf: Certificate, allowed: Set<String>) -> String? {
        guard let usages = leaf.extendedKeyUsage, !usages.isEmpty else { return "certificate has no extended key usage" }
        if usages.contains(ExtendedKeyUsage.anyExtendedKeyUsage) { return "anyExtendedKeyUsage is not allowed" }
        if allowed.isDisjoint(with: usages) {
            let named = allowed == readerExtendedKeyUsages ? "emailProtection" : allowed.sorted().joined(separator: ", ")
            return "certificate missing required EKU (\(named))"
        }
        return nil
    }
}
