import COpenSSL
import FoundationEssentials
import Glibc

public enum CertificateIssuer {
    /// Issues an X.509 v3 certificate with a random positive 16-byte serial, signed ecdsa-with-SHA256/384/512 matching the issuer key's curve.
    /// `issuer == nil` makes it self-signed by `subjectKey` (issuer name = subject). For a self-signed cert the AKI equals its own SKI.
    /// Exactly one of `issuer` and `selfSigningKey` must be given; `selfSigningKey` must be the private half of `subjectKey`.
    public static func issue(
        subject: DistinguishedName,
        subjectKey: PublicKey,
        profile: CertificateProfile,
        notBefore: Date,
        notAfter: Date,
        issuer: (certificate: Certificate, key: PrivateKey)?,
        selfSigningKey: PrivateKey? = nil
    ) throws -> Certificate {
        let operation = "issue certificate for \(subject.oneLine)"
        func failure(_ reason: String) -> CryptoError {
            CryptoError(operation: operation, reason: reason)
        }

        let signingKey: PrivateKey
        switch (issuer, selfSigningKey) {
        case let (issuer?, nil):
            guard X509_check_private_key(issuer.certificate.x509, issuer.key.key) == 1 else {
                ERR_clear_error()
                throw failure("issuer key does not match issuer certificate")
            }
            signingKey = issuer.key
        case let (nil, key?):
            guard key.publicKey == subjectKey else { throw failure("selfSigningKey is not the private half of subjectKey") }
            signingKey = key
        default:
            throw failure("exactly one of issuer and selfSigningKey must be given")
        }
        guard let curve = signingKey.curve else {
            throw failure("signing key is \(signingKey.publicKey.typeName), not EC on P-256, P-384 or P-521")
        }
        guard notBefore <= notAfter else { throw failure("notAfter precedes notBefore") }

        guard let x509 = X509_new() else { throw CryptoError.openSSL(operation) }
        do {
            try build(
                x509, subject: subject, subjectKey: subjectKey, profile: profile,
                notBefore: notBefore, notAfter: notAfter, issuer: issuer?.certificate, operation: operation)
            guard X509_sign(x509, signingKey.key, curve.certificateDigest.evpMD) > 0 else { throw CryptoError.openSSL(operation) }
        } catch {
            X509_free(x509)
            throw error
        }
        return try Certificate(owning: x509)
    }

    /// Fills everything but the signature. A nil `issuer` means self-issued.
    private static func build(
        _ x509: OpaquePointer,
        subject: DistinguishedName,
        subjectKey: PublicKey,
        profile: CertificateProfile,
        notBefore: Date,
        notAfter: Date,
        issuer: Certificate?,
        operation: String
    ) throws {
        let subjectName = try subject.makeX509Name()
        defer { X509_NAME_free(subjectName) }
        // The issuer name is copied from the issuer certificate, not rebuilt, so chain
        // building matches it byte for byte even if it has attributes we do not model.
        let issuerName = issuer.map { X509_get_subject_name($0.x509) } ?? subjectName

        guard X509_set_version(x509, Int(X509_VERSION_3)) == 1,
              X509_set_subject_name(x509, subjectName) == 1,
              X509_set_issuer_name(x509, issuerName) == 1,
              ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore.timeIntervalSince1970.rounded(.down))) != nil,
              ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter.timeIntervalSince1970.rounded(.down))) != nil,
              X509_set_pubkey(x509, subjectKey.key) == 1
        else { throw CryptoError.openSSL(operation) }
        try setRandomSerial(x509, operation)

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.x509 ?? x509, x509, nil, nil, 0)
        for (nid, value) in profile.extensions {
            guard let `extension` = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
                throw CryptoError.openSSL("\(operation): \(String(cString: OBJ_nid2sn(nid))) \(value)")
            }
            defer { X509_EXTENSION_free(`extension`) }
            guard X509_add_ext(x509, `extension`, -1) == 1 else { throw CryptoError.openSSL(operation) }
        }
    }

    private static func setRandomSerial(_ x509: OpaquePointer, _ operation: String) throws {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw CryptoError.openSSL(operation) }
        // Top bit clear keeps the INTEGER positive; the next bit set keeps it a full 16 bytes.
        bytes[0] = (bytes[0] & 0x7F) | 0x40
        guard let serial = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw CryptoError.openSSL(operation) }
        defer { BN_free(serial) }
        guard BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x509)) != nil else { throw CryptoError.openSSL(operation) }
    }
}
