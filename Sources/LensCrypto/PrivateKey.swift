import COpenSSL
import LensSystem

/// A private key; only EC keys on the three NIST curves can sign here.
/// The EVP_PKEY is never mutated after init, and OpenSSL allows concurrent operations on a
/// shared, unmodified key.
public final class PrivateKey: Sendable {
    private let handle: CHandle<OpaquePointer>
    var key: OpaquePointer { handle.pointer }
    /// Decoded from the SubjectPublicKeyInfo rather than sharing `key`, so it never holds private material.
    public let publicKey: PublicKey
    /// Where signing must happen, e.g. "?provider=tpm2" for a key that exists only inside a TPM:
    /// without it OpenSSL may pick the default provider's ECDSA, which cannot use such a key.
    let propertyQuery: String?

    /// Takes ownership of `key`, freeing it if init fails.
    init(owning key: OpaquePointer, propertyQuery: String? = nil) throws {
        let handle = CHandle(owning: key) { EVP_PKEY_free($0) }
        self.propertyQuery = propertyQuery
        let spki = try DER.encode("encode public key") { i2d_PUBKEY(key, $0) }
        publicKey = try PublicKey(subjectPublicKeyInfoDER: spki)
        self.handle = handle
    }

    public static func generate(_ curve: EllipticCurve) throws -> PrivateKey {
        let operation = "generate \(curve.rawValue) key"
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw CryptoError.openSSL(operation) }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_group_name(context, curve.rawValue) == 1,
              EVP_PKEY_keygen(context, &key) == 1,
              let key
        else { throw CryptoError.openSSL(operation) }
        return try PrivateKey(owning: key)
    }

    /// PKCS#8 "BEGIN PRIVATE KEY" or SEC1 "BEGIN EC PRIVATE KEY". Encrypted keys are rejected.
    public convenience init(pem: String) throws {
        let operation = "parse private key"
        let key = try PEM.withBIO(reading: pem, operation) { bio in
            // Without a callback OpenSSL would prompt for a passphrase on the terminal.
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        guard let key else { throw CryptoError.openSSL(operation) }
        try self.init(owning: key)
    }

    /// Unencrypted PKCS#8 "BEGIN PRIVATE KEY".
    public func pkcs8PEM() throws -> String {
        let operation = "encode private key"
        guard let info = EVP_PKEY2PKCS8(key) else { throw CryptoError.openSSL(operation) }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        let der = try DER.encode(operation) { i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
        return PEM.encode(label: "PRIVATE KEY", der: der)
    }

    /// nil for non-EC keys.
    public var curve: EllipticCurve? {
        publicKey.curve
    }

    /// ECDSA over `digest(message)`; returns IEEE P1363 r‖s, each coordinate left-padded to curve.coordinateSize.
    public func signECDSA(_ message: [UInt8], digest: DigestAlgorithm) throws -> [UInt8] {
        let operation = "ECDSA sign"
        guard let curve else {
            throw CryptoError(operation: operation, reason: "key is \(publicKey.typeName), not EC on P-256, P-384 or P-521")
        }
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.openSSL(operation) }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit_ex(context, nil, EVP_MD_get0_name(digest.evpMD), nil, propertyQuery, key, nil) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { throw CryptoError.openSSL(operation) }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
            throw CryptoError.openSSL(operation)
        }
        return try ECDSASignature.raw(fromDER: Array(der.prefix(length)), coordinateSize: curve.coordinateSize)
    }
}
