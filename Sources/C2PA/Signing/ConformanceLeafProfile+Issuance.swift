import LensCrypto

/// What an organization's CA must put in the leaf it issues for a profile, in the form of an
/// OpenSSL x509v3_config section (what `openssl ca -extensions` reads), built from the same
/// constants `missing(in:)` checks, so that a leaf issued with it meets the profile.
extension ConformanceLeafProfile {
    /// Stands for the URL of the CA's OCSP responder in `caExtensions`.
    public static let ocspURLPlaceholder = "OCSP-RESPONDER-URL"
    /// Stands for the UUID of the product's Conforming Products List entry in `caExtensions`.
    public static let cplRecordPlaceholder = "CPL-RECORD-UUID"

    /// The extension lines, with the two values only the CA knows left as placeholders.
    public var caExtensions: [String] {
        [
            "basicConstraints = critical, CA:FALSE",
            "keyUsage = critical, digitalSignature, nonRepudiation",
            "extendedKeyUsage = \(ExtendedKeyUsage.c2paClaimSigning), emailProtection",
            "subjectKeyIdentifier = hash",
            "authorityKeyIdentifier = keyid:always",
            "certificatePolicies = \(Self.certificatePolicy)",
            "authorityInfoAccess = OCSP;URI:\(Self.ocspURLPlaceholder)",
            "\(Self.assuranceLevelExtension) = ASN1:OID:\(assuranceLevel)",
            "\(Self.cplRecordExtension) = ASN1:UTF8String:\(Self.cplRecordPlaceholder)",
        ]
    }
}
