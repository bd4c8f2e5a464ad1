import COpenSSL
import FoundationEssentials

/// A PKCS#7 "certs-only" message (RFC 7030 §4.1.3, RFC 5652 SignedData with no signers and no
/// content): how an EST server answers /cacerts and /simpleenroll. It comes from the network, so
/// nothing is assumed of it: base64 with line breaks at most, one DER object with nothing after
/// it, SignedData, no signer, at least one certificate, each of which parses on its own.
public enum CertsOnlyMessage {
    /// Far beyond any chain an EST server sends.
    public static let sizeLimit = 1 << 20

    /// The certificates of the base64 body (`application/pkcs7-mime`, Content-Transfer-Encoding base64).
    public static func certificates(base64 body: [UInt8]) throws -> [Certificate] {
        let operation = "read the EST answer (PKCS#7 certs-only, base64)"
        guard body.count <= sizeLimit else { throw CryptoError(operation: operation, reason: "larger than \(sizeLimit) bytes") }
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0d, 0x0a]
        let text = body.filter { !whitespace.contains($0) }
        guard let decoded = Data(base64Encoded: Data(text)), !decoded.isEmpty else {
            throw CryptoError(operation: operation, reason: "not base64")
        }
        return try certificates(der: Array(decoded))
    }

    /// The certificates of the DER message, in the order it lists them.
    public static func certificates(der: [UInt8]) throws -> [Certificate] {
        let operation = "read PKCS#7 certs-only"
        guard let message = DER.decodePKCS7(der) else {
            ERR_clear_error()
            throw CryptoError(operation: operation, reason: "not one DER PKCS#7 object")
        }
        defer { PKCS7_free(message) }
        if let signers = PKCS7_get_signer_info(message), OPENSSL_sk_num(signers) > 0 {
            throw CryptoError(operation: operation, reason: "a signed message, not certs-only")
        }
        guard let stack = lens_PKCS7_certificates(message) else {
            throw CryptoError(operation: operation, reason: "not SignedData, or it carries no certificates")
        }
        let certificates = try (0..<lens_sk_X509_num(stack)).map { index in
            guard let x509 = lens_sk_X509_value(stack, index) else { throw CryptoError.openSSL(operation) }
            return try Certificate(der: try DER.encode(operation) { i2d_X509(x509, $0) })
        }
        guard !certificates.isEmpty else { throw CryptoError(operation: operation, reason: "it carries no certificate") }
        return certificates
    }
}
