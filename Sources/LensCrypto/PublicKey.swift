import COpenSSL

/// A public key of any type OpenSSL can decode; only EC keys can verify here.
// @unchecked Sendable: the EVP_PKEY is never mutated after init, and OpenSSL allows
// concurrent operations on a shared, unmodified key.
public final class PublicKey: @unchecked Sendable, Equatable {
    let key: OpaquePointer
    public let subjectPublicKeyInfoDER: [UInt8]

    /// Takes ownership of `key`, freeing it if init fails.
    init(owning key: OpaquePointer) throws {
        do {
            subjectPublicKeyInfoDER = try DER.encode("encode public key") { i2d_PUBKEY(key, $0) }
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
        self.key = key
    }

    public convenience init(subjectPublicKeyInfoDER der: [UInt8]) throws {
        let key = try DER.decode(der, "parse public key", { d2i_PUBKEY(nil, $0, $1) }, free: EVP_PKEY_free)
        try self.init(owning: key)
    }

    deinit {
        EVP_PKEY_free(key)
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

    /// P1363 r‖s signature over digest(message). Returns false (never throws, never crashes) for malformed/odd-length input.
    public func verifyECDSA(rawSignature: [UInt8], message: [UInt8], digest: DigestAlgorithm) -> Bool {
        // Failed verifications leave entries on the thread's error queue; they are expected, not errors.
        defer { ERR_clear_error() }
        guard let curve,
              let der = ECDSASignature.der(fromRaw: rawSignature, coordinateSize: curve.coordinateSize),
              let context = EVP_MD_CTX_new()
        else { return false }
        defer { EVP_MD_CTX_free(context) }
        return EVP_DigestVerifyInit(context, nil, digest.evpMD, nil, key) == 1
            && EVP_DigestVerify(context, der, der.count, message, message.count) == 1
    }

    /// Same key: compares the SubjectPublicKeyInfo encodings.
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
        lhs.subjectPublicKeyInfoDER == rhs.subjectPublicKeyInfoDER
    }
}
