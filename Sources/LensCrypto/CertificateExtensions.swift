import COpenSSL

/// The extensions a certificate profile names by OID, read as they are (the C2PA Conformance
/// Program's claim-signing leaf profile: policies, assurance level, CPL record, criticality).
extension Certificate {
    public struct Extension: Sendable, Equatable {
        public var isCritical: Bool
        /// The extnValue's contents: the DER of the extension's value.
        public var der: [UInt8]
    }

    /// The extension with dotted OID `oid`; nil when absent.
    public func extensionValue(oid: String) -> Extension? {
        let index = lens_X509_extension_index(x509, oid)
        guard index >= 0, let found = X509_get_ext(x509, index), let data = X509_EXTENSION_get_data(found) else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(data), count: Int(ASN1_STRING_length(data))))
        return Extension(isCritical: X509_EXTENSION_get_critical(found) == 1, der: bytes)
    }

    /// The certificatePolicies OIDs, dotted; nil when the extension is absent.
    public var policyOIDs: [String]? {
        guard let joined = lens_X509_policy_oids(x509) else { return nil }
        defer { lens_OPENSSL_free(joined) }
        return String(cString: joined).split(separator: "\n").map(String.init)
    }

    /// The dotted OID an extension's value is (DER OBJECT IDENTIFIER); nil when it is not one.
    public static func objectIdentifier(_ der: [UInt8]) -> String? {
        der.withUnsafeBufferPointer { buffer -> String? in
            var cursor = buffer.baseAddress
            guard let object = d2i_ASN1_OBJECT(nil, &cursor, buffer.count) else { return nil }
            defer { ASN1_OBJECT_free(object) }
            return ASN1Object.text(object, numeric: true)
        }
    }
}
