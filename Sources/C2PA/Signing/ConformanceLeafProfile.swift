import FoundationEssentials
import LensCrypto

/// The C2PA Conformance Program's claim-signing leaf certificate profiles (program 0.2,
/// `docs/v0.2/cert-profiles/claimSigningLeaf.al1.cert.yaml` and `.al2`), checked item by item.
/// Stricter than c2pa-rs's profile (`SigningCertificateProfile`), which every leaf lensd signs
/// with meets already; the key algorithm and curve are left to that one.
public enum ConformanceLeafProfile: String, CaseIterable, Sendable {
    case al1 = "c2pa-al1"
    case al2 = "c2pa-al2"

    static let certificatePolicy = "1.3.6.1.4.1.62558.1.1"
    static let assuranceLevelExtension = "1.3.6.1.4.1.62558.3"
    static let cplRecordExtension = "1.3.6.1.4.1.62558.4"
    static let keyUsageExtension = "2.5.29.15", basicConstraintsExtension = "2.5.29.19"

    public var maximumValidityDays: Int { self == .al1 ? 366 : 90 }
    var assuranceLevel: String { self == .al1 ? "1.3.6.1.4.1.62558.3.10" : "1.3.6.1.4.1.62558.3.20" }

    /// The profile items `leaf` does not meet, each named in a few words; empty: it meets them all.
    public func missing(in leaf: Certificate) -> [String] {
        var missing: [String] = []
        func require(_ holds: Bool, _ item: String) { if !holds { missing.append(item) } }
        require(leaf.version == 3, "X.509 version 3")
        let subject = leaf.subject
        require(![subject.country, subject.organization, subject.commonName].contains { ($0 ?? "").isEmpty }, "subject C, O and CN")
        require(leaf.keyUsage.map { $0.isSuperset(of: [.digitalSignature, .nonRepudiation]) } == true
                    && leaf.extensionValue(oid: Self.keyUsageExtension)?.isCritical == true,
                "critical keyUsage digitalSignature and nonRepudiation")
        require(leaf.isCA == false && leaf.extensionValue(oid: Self.basicConstraintsExtension)?.isCritical == true,
                "critical basicConstraints cA=FALSE")
        let usages = leaf.extendedKeyUsage ?? []
        require(usages.contains(ExtendedKeyUsage.c2paClaimSigning)
                    && (usages.contains(ExtendedKeyUsage.emailProtection) || usages.contains(ExtendedKeyUsage.documentSigning)),
                "extendedKeyUsage c2pa-kp-claimSigning with emailProtection or documentSigning")
        require(leaf.hasSubjectKeyIdentifier, "subjectKeyIdentifier")
        require(leaf.authorityKeyIdentifier != nil, "authorityKeyIdentifier keyIdentifier")
        require(leaf.policyOIDs?.contains(Self.certificatePolicy) == true, "certificatePolicies \(Self.certificatePolicy)")
        require(leaf.ocspURLs.contains { $0.hasPrefix("http://") || $0.hasPrefix("https://") }, "authorityInfoAccess with an OCSP URI")
        require(leaf.extensionValue(oid: Self.assuranceLevelExtension).flatMap { Certificate.objectIdentifier($0.der) } == assuranceLevel,
                "assurance level \(assuranceLevel)")
        // A UTF8String (tag 12) of the 36 characters of the CPL entry's UUID.
        require(leaf.extensionValue(oid: Self.cplRecordExtension).map { $0.der.count == 38 && $0.der[0] == 0x0C && $0.der[1] == 36 } == true,
                "CPL record ID \(Self.cplRecordExtension)")
        let days = leaf.notAfter.timeIntervalSince(leaf.notBefore) / 86_400
        require(days <= Double(maximumValidityDays), "validity of at most \(maximumValidityDays) days")
        return missing
    }
}
