import COpenSSL
import LensSystem

/// A public key of any type OpenSSL can decode; EC, RSA and Ed25519 keys can verify.
/// The EVP_PKEY is never mutated after init, and OpenSSL allows concurrent operations on a
/// shared, unmodified key.
public final class PublicKey: Sendable, Equatable {
    private let handle: CHandle<OpaquePointer>
    var key: OpaquePointer { handle.pointer }
    public let subjectPublicKeyInfoDER: [UInt8]

    /// Takes ownership of `key`, freeing it if init fails.
    init(owning key: OpaquePointer) throws {
        let handle = CHandle(owning: key) { EVP_PKEY_free($0) }
        subjectPublicKeyInfoDER = try DER.encode("encode public key") { i2d_PUBKEY(key, $0) }
        self.handle = handle
    }

    public convenience init(subjectPublicKeyInfoDER der: [UInt8]) throws {
        let key = try DER.decode(der, "parse public key", { d2i_PUBKEY(nil, $0, $1) }, free: EVP_PKEY_free)
        try self.init(owning: key)
    }

    /// An Ed25519 key from its 32 raw bytes (RFC 8032), as a JWK or a DID carries it.
    public convenience init(ed25519 raw: [UInt8]) throws {
        guard raw.count == 32 else { throw CryptoError(operation: "read Ed25519 key", reason: "\(raw.count) bytes, not 32") }
        // SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING { 0 unused bits, key } }.
        try self.init(subjectPublicKeyInfoDER: [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00] + raw)
    }

    /// nil when not EC or not one of the three curves.
    public var curve: EllipticCurve? {
        EllipticCurve(key: key)
    }

    /// OpenSSL's key type name: "EC", "RSA", "RSA-PSS", "ED25519", …
    public var typeName: String {
        if let name = EVP_PKEY_get0_type_name(key) {
            return String(cString: name)
        }
        return OBJ_nid2sn(EVP_PKEY_get_base_id(key)).map { String(cString: $0) } ?? "unknown"
    }

    public var bits: Int {
        Int(EVP_PKEY_get_bits(key))
    }

    /// An rsaEncryption or id-RSASSA-PSS key.
    public var isRSA: Bool {
        EVP_PKEY_is_a(key, "RSA") == 1 || EVP_PKEY_is_a(key, "RSA-PSS") == 1
    }

    /// P1363 r‖s signature over digest(message). Returns false (never throws, never crashes) for malformed/odd-length input.
    public func verifyECDSA(rawSignature: [UInt8], message: [UInt8], digest: DigestAlgorithm) -> Bool {
        verify(signature: rawSignature, message: message, scheme: .ecdsa(digest))
    }

    /// Whether `signature` (in COSE's form: raw r‖s for ECDSA) signs `message` under `scheme`.
    /// False, never a throw or a crash, for a key of the wrong kind or a malformed signature.
    public func verify(signature: [UInt8], message: [UInt8], scheme: SignatureScheme) -> Bool {
        // Failed verifications leave entries on the thread's error queue; they are expected, not errors.
        defer { ERR_clear_error() }
        guard scheme.accepts(self), let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        switch scheme {
        case .ecdsa(let digest):
            guard let curve, let der = ECDSASignature.der(fromRaw: signature, coordinateSize: curve.coordinateSize) else {
                return false
            }
            return EVP_DigestVerifyInit(context, nil, digest.evpMD, nil, key) == 1
                && EVP_DigestVerify(context, der, der.count, message, message.count) == 1
        case .rsaPSS(let digest):
            var parameters: OpaquePointer?
            return EVP_DigestVerifyInit(context, &parameters, digest.evpMD, nil, key) == 1
                && EVP_PKEY_CTX_set_rsa_padding(parameters, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(parameters, RSA_PSS_SALTLEN_DIGEST) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(parameters, digest.evpMD) == 1
                && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        case .ed25519:
            // EdDSA hashes internally: no digest, one-shot only.
            return EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1
                && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        }
    }

    /// Same key: compares the SubjectPublicKeyInfo encodings.
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
        lhs.subjectPublicKeyInfoDER == rhs.subjectPublicKeyInfoDER
    }
}
