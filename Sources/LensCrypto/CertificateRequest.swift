import COpenSSL

/// PKCS#10 certificate signing requests, signed by a key that may never be in this process:
/// the to-be-signed part is encoded here and handed to the key's own signing.
public enum CertificateRequest {
    /// A PEM "CERTIFICATE REQUEST" for `subject`, with a subjectAltName of `dnsNames` when any are
    /// given, signed ecdsa-with-SHA256 by `key` (which must be on P-256).
    public static func make(subject: DistinguishedName, dnsNames: [String], key: any SigningKey) throws -> String {
        PEM.encode(label: "CERTIFICATE REQUEST", der: try makeDER(subject: subject, dnsNames: dnsNames, key: key))
    }

    /// The same request as DER (what EST sends, base64-encoded), with `attributes` (an OID and
    /// the DER of its one value, e.g. TPMKeyEvidence's) among its attributes.
    public static func makeDER(subject: DistinguishedName, dnsNames: [String], key: any SigningKey,
                               attributes: [(oid: String, value: [UInt8])] = []) throws -> [UInt8] {
        let operation = "create certificate request for \(subject.oneLine)"
        guard key.publicKey.curve == .p256 else {
            throw CryptoError(operation: operation, reason: "the key is \(key.publicKey.typeName), not EC on P-256")
        }
        guard let request = X509_REQ_new() else { throw CryptoError.openSSL(operation) }
        defer { X509_REQ_free(request) }
        let name = try subject.makeX509Name()
        defer { X509_NAME_free(name) }
        guard X509_REQ_set_version(request, 0) == 1,
              X509_REQ_set_subject_name(request, name) == 1,
              X509_REQ_set_pubkey(request, key.publicKey.key) == 1
        else { throw CryptoError.openSSL(operation) }
        if !dnsNames.isEmpty { try addSubjectAltName(dnsNames, to: request, operation) }
        for attribute in attributes {
            // V_ASN1_SEQUENCE: OpenSSL writes the bytes as they are, the value's own DER.
            guard X509_REQ_add1_attr_by_txt(request, attribute.oid, V_ASN1_SEQUENCE, attribute.value, Int32(attribute.value.count)) == 1 else {
                throw CryptoError.openSSL("\(operation): attribute \(attribute.oid)")
            }
        }

        let toBeSigned = try DER.encode(operation) { i2d_re_X509_REQ_tbs(request, $0) }
        let raw = try key.signECDSA(toBeSigned, digest: .sha256)
        guard let der = ECDSASignature.der(fromRaw: raw, coordinateSize: EllipticCurve.p256.coordinateSize) else {
            throw CryptoError(operation: operation, reason: "the key returned a malformed signature")
        }
        try setSignature(der, on: request, operation)
        // The key signed what it was given: a request that does not verify means a key other than
        // the one whose public half it carries.
        guard X509_REQ_verify(request, key.publicKey.key) == 1 else {
            ERR_clear_error()
            throw CryptoError(operation: operation, reason: "the signature does not verify with the key's public half")
        }
        return try DER.encode(operation) { i2d_X509_REQ(request, $0) }
    }

    private static func addSubjectAltName(_ dnsNames: [String], to request: OpaquePointer, _ operation: String) throws {
        guard dnsNames.allSatisfy({ !$0.isEmpty && !$0.contains(",") && !$0.contains(":") }) else {
            throw CryptoError(operation: operation, reason: "a DNS name is empty or holds ',' or ':'")
        }
        let value = dnsNames.map { "DNS:\($0)" }.joined(separator: ",")
        guard let `extension` = X509V3_EXT_nconf_nid(nil, nil, NID_subject_alt_name, value) else {
            throw CryptoError.openSSL("\(operation): subjectAltName \(value)")
        }
        defer { X509_EXTENSION_free(`extension`) }
        guard let extensions = lens_sk_X509_EXTENSION_new_null() else { throw CryptoError.openSSL(operation) }
        defer { lens_sk_X509_EXTENSION_free(extensions) }
        guard lens_sk_X509_EXTENSION_push(extensions, `extension`) > 0,
              X509_REQ_add_extensions(request, extensions) == 1
        else { throw CryptoError.openSSL(operation) }
    }

    private static func setSignature(_ der: [UInt8], on request: OpaquePointer, _ operation: String) throws {
        guard let algorithm = X509_ALGOR_new() else { throw CryptoError.openSSL(operation) }
        defer { X509_ALGOR_free(algorithm) }
        guard X509_ALGOR_set0(algorithm, OBJ_nid2obj(NID_ecdsa_with_SHA256), V_ASN1_UNDEF, nil) == 1,
              X509_REQ_set1_signature_algo(request, algorithm) == 1,
              let signature = ASN1_BIT_STRING_new()
        else { throw CryptoError.openSSL(operation) }
        var bytes = der  // copied by OpenSSL; `&` keeps the pointer valid for the call
        guard ASN1_BIT_STRING_set(signature, &bytes, Int32(bytes.count)) == 1 else {
            ASN1_BIT_STRING_free(signature)
            throw CryptoError.openSSL(operation)
        }
        // A signature is whole bytes: without this OpenSSL would count trailing zero bits as unused.
        lens_ASN1_BIT_STRING_whole_bytes(signature)
        X509_REQ_set0_signature(request, signature)
    }
}
