import Foundation
import LensCore
import LensCrypto
import LensIdentity

/// The `--key` of the signing benchmarks: a PEM file, `pkcs11:token=…;object=…` (with
/// `--pkcs11-module` and `--pkcs11-pin-file`), or `tpm2:BLOB` (a TSS2 key blob, the TPM reached
/// as OpenSSL's tpm2 provider does), so that each backend's cost can be set side by side.
enum BenchKey {
    static func open(_ key: String, module: String?, pinFile: String?) throws -> any SigningKey {
        if key.hasPrefix("pkcs11:") {
            guard let module, let pinFile else { throw BenchError("a pkcs11: key needs --pkcs11-module and --pkcs11-pin-file") }
            let pin = try String(contentsOfFile: pinFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            guard let opened = try PKCS11Key.open(try PKCS11URI(parsing: key), modulePath: module, pin: Array(pin.utf8),
                                                 pinSource: pinFile, create: false) else {
                throw BenchError("the token has no key \(key)")
            }
            return opened
        }
        if key.hasPrefix("tpm2:") {
            return try TPMKey.load(blob: try String(contentsOfFile: String(key.dropFirst("tpm2:".count)), encoding: .utf8))
        }
        return try PrivateKey(pem: try String(contentsOfFile: key, encoding: .utf8))
    }

    /// Whether c2pa-python can sign with it too (it reads only key files).
    static func isFile(_ key: String) -> Bool {
        !key.hasPrefix("pkcs11:") && !key.hasPrefix("tpm2:")
    }
}
