import LensCrypto

/// The C2PA signing-certificate profile (spec 2.2 §14.5.1). Returns the first violation, or nil.
enum CertificateProfile {
    static let allowedExtendedKeyUsages: Set<String> = [
        ExtendedKeyUsage.emailProtection, ExtendedKeyUsage.documentSigning, ExtendedKeyUsage.c2paClaimSigning,
    ]

    static func violation(_ leaf: Certificate, algorithm: SigningAlgorithm) -> String? {
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
        if leaf.publicKey.curve != algorithm.curve { return "certificate key does not match \(algorithm.rawValue)" }
        return nil
    }
}
