import LensCrypto

/// The C2PA signing-certificate profile as c2pa-rs applies it (FORMAT.md §3), checked on load so
/// that a certificate validators would refuse is reported as `.invalid` at startup rather than
/// in every photo's verification.
enum SigningCertificateRules {
    /// The first rule `leaf` breaks, or nil.
    static func violation(_ leaf: Certificate) -> String? {
        if leaf.version != 3 { return "it is not an X.509 v3 certificate" }
        if leaf.isCA == true { return "it is a CA certificate" }
        guard let usage = leaf.keyUsage else { return "it has no key usage" }
        if !usage.contains(.digitalSignature) && !usage.contains(.nonRepudiation) {
            return "its key usage lacks digitalSignature"
        }
        if usage.contains(.keyCertSign) { return "its key usage includes keyCertSign" }
        if !leaf.hasAuthorityKeyIdentifier { return "it has no authority key identifier" }
        guard let usages = leaf.extendedKeyUsage else { return "it has no extended key usage" }
        // c2pa-rs refuses these outright, and its reader accepts documentSigning or
        // c2pa-kp-claimSigning only alongside emailProtection.
        let refused = [ExtendedKeyUsage.anyExtendedKeyUsage, ExtendedKeyUsage.timeStamping, ExtendedKeyUsage.ocspSigning]
        if let bad = usages.first(where: refused.contains) { return "its extended key usage includes \(bad)" }
        if !usages.contains(ExtendedKeyUsage.emailProtection) { return "its extended key usage lacks emailProtection" }
        if leaf.hasUnknownCriticalExtension { return "it has an unknown critical extension" }
        return nil
    }
}
