import LensCrypto

/// The C2PA signing-certificate profile (spec 2.2 §14.5.1). Returns the first violation, or nil.
enum CertificateProfile {
    static let allowedExtendedKeyUsages: Set<String> = [
        ExtendedKeyUsage.emailProtection, ExtendedKeyUsage.documentSigning, ExtendedKeyUsage.c2paClaimSigning,
    ]

    /// Certificate signature algorithms C2PA allows (OpenSSL long names); SHA-1 and MD5 are out.
    static let allowedCertificateSignatures: Set<String> = [
        "sha256WithRSAEncryption", "sha384WithRSAEncryption", "sha512WithRSAEncryption",
        "ecdsa-with-SHA256", "ecdsa-with-SHA384", "ecdsa-with-SHA512", "rsassaPss", "ED25519",
    ]

    static func violation(_ leaf: Certificate) -> String? {
        if leaf.version != 3 { return "certificate is not X.509 v3" }
        if leaf.isCA == true { return "signing certificate is a CA" }
        guard let usage = leaf.keyUsage else { return "certificate has no key usage" }
        if !usage.contains(.digitalSignature) && !usage.contains(.nonRepudiation) {
            return "key usage lacks digitalSignature"
        }
        if usage.contains(.keyCertSign) { return "a signing certificate may not have keyCertSign" }
        if !leaf.hasAuthorityKeyIdentifier { return "certificate has no authority key identifier" }
        guard let ekus = leaf.extendedKeyUsage, !ekus.isEmpty else { return "certificate missing required EKU" }
        if ekus.contains(ExtendedKeyUsage.anyExtendedKeyUsage) { return "anyExtendedKeyUsage is not allowed" }
        if allowedExtendedKeyUsages.isDisjoint(with: ekus) { return "certificate missing required EKU" }
        if leaf.hasUnknownCriticalExtension { return "certificate has an unknown critical extension" }
        if !allowedCertificateSignatures.contains(leaf.signatureAlgorithm) { return "certificate algorithm not supported" }
        if leaf.publicKey.isRSA && leaf.publicKey.bits < SignatureScheme.minimumRSABits { return "certificate key length too short" }
        return nil
    }
}
