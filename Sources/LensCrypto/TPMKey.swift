import COpenSSL
import Synchronization

/// P-256 keys created inside a TPM 2.0 through OpenSSL 3's `tpm2` provider (Debian
/// tpm2-openssl). The private key never leaves the TPM: what is stored is the TPM's wrapped
/// blob ("TSS2 PRIVATE KEY" PEM), which only that TPM can load, and every signature is made
/// inside it. The TPM is reached as the provider does: /dev/tpmrm0, or the TCTI named by
/// TPM2OPENSSL_TCTI (e.g. "swtpm:host=127.0.0.1,port=2321").
public enum TPMKey {
    private static let propertyQuery = "?provider=tpm2"
    /// Loading a provider explicitly stops OpenSSL from loading `default` by itself, so both are
    /// loaded, once, the first time a TPM key is used.
    private static let providersLoaded = Mutex<Bool>(false)

    /// A new key in the TPM, and the wrapped blob to keep.
    public static func generate() throws -> (key: PrivateKey, blob: String) {
        let operation = "generate a P-256 key in the TPM"
        try loadProviders(operation)
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", "provider=tpm2") else { throw CryptoError.openSSL(operation) }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_group_name(context, EllipticCurve.p256.rawValue) == 1,
              EVP_PKEY_keygen(context, &pkey) == 1,
              let pkey
        else { throw CryptoError.openSSL(operation) }
        let key = try PrivateKey(owning: pkey, propertyQuery: propertyQuery)
        return (key, try blob(of: key, operation))
    }

    /// The key a blob from `generate` names, loaded into the TPM.
    public static func load(blob: String) throws -> PrivateKey {
        let operation = "load the TPM key"
        try loadProviders(operation)
        let pkey = try PEM.withBIO(reading: blob, operation) { bio in
            PEM_read_bio_PrivateKey_ex(bio, nil, { _, _, _, _ in -1 }, nil, nil, propertyQuery)
        }
        guard let pkey else { throw CryptoError.openSSL(operation) }
        return try PrivateKey(owning: pkey, propertyQuery: propertyQuery)
    }

    private static func blob(of key: PrivateKey, _ operation: String) throws -> String {
        guard let encoder = OSSL_ENCODER_CTX_new_for_pkey(key.key, lens_EVP_PKEY_KEYPAIR, "PEM", nil, "provider=tpm2"),
              OSSL_ENCODER_CTX_get_num_encoders(encoder) > 0
        else { throw CryptoError.openSSL("\(operation): no TPM key encoder") }
        defer { OSSL_ENCODER_CTX_free(encoder) }
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard OSSL_ENCODER_to_data(encoder, &data, &length) == 1, let data else { throw CryptoError.openSSL(operation) }
        defer { lens_OPENSSL_free(data) }
        return String(decoding: UnsafeBufferPointer(start: data, count: length), as: UTF8.self)
    }

    private static func loadProviders(_ operation: String) throws {
        try providersLoaded.withLock { loaded in
            guard !loaded else { return }
            guard OSSL_PROVIDER_load(nil, "default") != nil, OSSL_PROVIDER_load(nil, "tpm2") != nil else {
                throw CryptoError.openSSL("\(operation): cannot load OpenSSL's tpm2 provider (install tpm2-openssl)")
            }
            loaded = true
        }
    }
}
