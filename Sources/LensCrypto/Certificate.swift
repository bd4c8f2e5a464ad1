import COpenSSL
import LensSystem
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An X.509 certificate. The X509 is never mutated after init, and init fills OpenSSL's lazily
/// computed extension cache, so later reads do not write to it.
public final class Certificate: Sendable, Equatable {
    private let handle: CHandle<OpaquePointer>
    var x509: OpaquePointer { handle.pointer }
    public let der: [UInt8]
    public let publicKey: PublicKey
    public let notBefore: Date
    public let notAfter: Date
    private let extensionFlags: UInt32

    /// Takes ownership of `x509`, freeing it if init fails. `der` is its exact encoding.
    private init(owning x509: OpaquePointer, der: [UInt8]) throws {
        let operation = "parse certificate"
        let handle = CHandle(owning: x509) { X509_free($0) }
        // Rejecting malformed or duplicated extensions up front keeps isCA, keyUsage and
        // friends honest: OpenSSL reports a malformed extension as if it were absent.
        let flags = X509_get_extension_flags(x509)
        guard flags & UInt32(EXFLAG_INVALID) == 0 else {
            throw CryptoError(operation: operation, reason: "malformed or duplicated extension")
        }
        guard let notBefore = Self.date(X509_get0_notBefore(x509)), let notAfter = Self.date(X509_get0_notAfter(x509)) else {
            throw CryptoError(operation: operation, reason: "malformed validity time")
        }
        guard let key = X509_get_pubkey(x509) else { throw CryptoError.openSSL("\(operation) public key") }
        publicKey = try PublicKey(owning: key)
        self.handle = handle
        self.der = der
        self.notBefore = notBefore
        self.notAfter = notAfter
        extensionFlags = flags
    }

    /// Takes ownership of a freshly built `x509`.
    convenience init(owning x509: OpaquePointer) throws {
        let der: [UInt8]
        do {
            der = try DER.encode("encode certificate") { i2d_X509(x509, $0) }
        } catch {
            X509_free(x509)
            throw error
        }
        try self.init(owning: x509, der: der)
    }

    /// Rejects trailing bytes and truncated input.
    public convenience init(der: [UInt8]) throws {
        let x509 = try DER.decode(der, "parse certificate", { d2i_X509(nil, $0, $1) }, free: X509_free)
        try self.init(owning: x509, der: der)
    }

    /// Every CERTIFICATE block in order, skipping other blocks; throws if there is none.
    public static func parsePEM(_ pem: String) throws -> [Certificate] {
        let operation = "parse PEM certificates"
        let certificates = try PEM.blocks(in: pem, operation)
            .filter { $0.label == "CERTIFICATE" }
            .map { try Certificate(der: $0.der) }
        guard !certificates.isEmpty else { throw CryptoError(operation: operation, reason: "no CERTIFICATE block") }
        return certificates
    }

    public var pem: String {
        PEM.encode(label: "CERTIFICATE", der: der)
    }

    /// 1...3
    public var version: Int {
        Int(X509_get_version(x509)) + 1
    }

    public var subject: DistinguishedName {
        DistinguishedName(x509Name: X509_get_subject_name(x509))
    }

    public var issuer: DistinguishedName {
        DistinguishedName(x509Name: X509_get_issuer_name(x509))
    }

    /// Uppercase hex of the magnitude, two digits per byte, "-" first if negative (as `openssl x509 -serial`).
    public var serialNumberHex: String {
        let serial = X509_get0_serialNumber(x509)
        let bytes = UnsafeBufferPointer(start: ASN1_STRING_get0_data(serial), count: Int(ASN1_STRING_length(serial)))
        let hex = bytes.isEmpty ? "00" : bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        return ASN1_STRING_type(serial) == V_ASN1_NEG_INTEGER ? "-" + hex : hex
    }

    /// nil when there is no basicConstraints extension.
    public var isCA: Bool? {
        guard has(EXFLAG_BCONS) else { return nil }
        return has(EXFLAG_CA)
    }

    /// nil when the extension is absent.
    public var keyUsage: KeyUsage? {
        guard has(EXFLAG_KUSAGE) else { return nil }
        return KeyUsage(openSSLFlags: X509_get_key_usage(x509))
    }

    /// Dotted OIDs in certificate order; nil when absent.
    public var extendedKeyUsage: [String]? {
        guard let decoded = X509_get_ext_d2i(x509, NID_ext_key_usage, nil, nil) else { return nil }
        let usages = OpaquePointer(decoded)
        defer { EXTENDED_KEY_USAGE_free(usages) }
        return (0..<lens_sk_ASN1_OBJECT_num(usages)).map { index in
            ASN1Object.text(lens_sk_ASN1_OBJECT_value(usages, index), numeric: true)
        }
    }

    public var hasAuthorityKeyIdentifier: Bool {
        X509_get_ext_by_NID(x509, NID_authority_key_identifier, -1) >= 0
    }

    public var hasSubjectKeyIdentifier: Bool {
        X509_get_ext_by_NID(x509, NID_subject_key_identifier, -1) >= 0
    }

    /// The keyIdentifier field of the authority key identifier; nil when absent.
    public var authorityKeyIdentifier: [UInt8]? {
        X509_get0_authority_key_id(x509).map(Self.bytes)
    }

    /// nil when the extension is absent.
    public var subjectKeyIdentifier: [UInt8]? {
        X509_get0_subject_key_id(x509).map(Self.bytes)
    }

    /// A critical extension OpenSSL does not understand; RFC 5280 says such a certificate must be rejected.
    public var hasUnknownCriticalExtension: Bool {
        has(EXFLAG_CRITICAL)
    }

    /// OpenSSL long name, e.g. "ecdsa-with-SHA256"; dotted OID when OpenSSL has no name for it.
    public var signatureAlgorithm: String {
        var algorithm: UnsafePointer<X509_ALGOR>?
        X509_get0_signature(nil, &algorithm, x509)
        var object: OpaquePointer?
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        return object.map { ASN1Object.text($0, numeric: false) } ?? "unknown"
    }

    public var sha256Fingerprint: [UInt8] {
        Digest.hash(der)
    }

    /// subject == issuer, comparing the complete encoded names.
    public var isSelfIssued: Bool {
        X509_NAME_cmp(X509_get_subject_name(x509), X509_get_issuer_name(x509)) == 0
    }

    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.der == rhs.der
    }

    private func has(_ flag: Int32) -> Bool {
        extensionFlags & UInt32(flag) != 0
    }

    private static func bytes(_ string: UnsafePointer<ASN1_OCTET_STRING>) -> [UInt8] {
        Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(string), count: Int(ASN1_STRING_length(string))))
    }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        var components = tm()
        guard let time, ASN1_TIME_to_tm(time, &components) == 1 else {
            ERR_clear_error()
            return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&components)))
    }
}
