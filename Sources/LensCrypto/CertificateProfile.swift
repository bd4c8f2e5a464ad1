import COpenSSL

/// Which X.509 v3 extensions `CertificateIssuer` writes.
public enum CertificateProfile: Sendable {
    /// CA:TRUE critical; KU keyCertSign+cRLSign critical; SKI; AKI keyid.
    case rootCA
    /// CA:TRUE critical pathlen; KU keyCertSign+cRLSign critical; SKI; AKI.
    case intermediateCA(pathLength: Int)
    /// CA:FALSE critical; KU digitalSignature+nonRepudiation critical (the C2PA Conformance
    /// Program's claim-signing leaf profile wants both); EKU emailProtection, documentSigning,
    /// c2paClaimSigning (non-critical); SKI; AKI keyid:always.
    case c2paSigner
    /// For tests of bad profiles. Always has an SKI.
    case custom(isCA: Bool?, keyUsage: KeyUsage?, extendedKeyUsage: [String]?, authorityKeyIdentifier: Bool)

    /// OpenSSL v3 configuration values in the order they are added. The SKI precedes the
    /// AKI because a self-signed certificate's AKI is copied from its own SKI; "always"
    /// stops OpenSSL from omitting the AKI of a self-signed certificate.
    var extensions: [(nid: Int32, value: String)] {
        let caUsage = (NID_key_usage, "critical," + KeyUsage([.keyCertSign, .cRLSign]).configurationNames)
        let keyIdentifiers = [(NID_subject_key_identifier, "hash"), (NID_authority_key_identifier, "keyid:always")]
        switch self {
        case .rootCA:
            return [(NID_basic_constraints, "critical,CA:TRUE"), caUsage] + keyIdentifiers
        case .intermediateCA(let pathLength):
            return [(NID_basic_constraints, "critical,CA:TRUE,pathlen:\(pathLength)"), caUsage] + keyIdentifiers
        case .c2paSigner:
            let usages = [ExtendedKeyUsage.emailProtection, ExtendedKeyUsage.documentSigning, ExtendedKeyUsage.c2paClaimSigning]
            return [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical," + KeyUsage([.digitalSignature, .nonRepudiation]).configurationNames),
                (NID_ext_key_usage, usages.joined(separator: ",")),
            ] + keyIdentifiers
        case .custom(let isCA, let keyUsage, let extendedKeyUsage, let authorityKeyIdentifier):
            var extensions: [(nid: Int32, value: String)] = []
            if let isCA {
                extensions.append((NID_basic_constraints, isCA ? "critical,CA:TRUE" : "critical,CA:FALSE"))
            }
            if let keyUsage {
                extensions.append((NID_key_usage, "critical," + keyUsage.configurationNames))
            }
            if let extendedKeyUsage {
                extensions.append((NID_ext_key_usage, extendedKeyUsage.joined(separator: ",")))
            }
            return extensions + (authorityKeyIdentifier ? keyIdentifiers : Array(keyIdentifiers.prefix(1)))
        }
    }
}
