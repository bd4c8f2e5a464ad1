import COpenSSL

/// An RFC 3161 TimeStampReq over some bytes: their SHA-256 imprint, a fresh 64-bit nonce (so a
/// replayed answer is caught), and certReq true (the TSA's chain comes back in the token, which
/// is how a C2PA verifier finds it).
public struct TimeStampRequest: Sendable {
    public let der: [UInt8]
    public let nonce: [UInt8]
    public let imprint: [UInt8]

    public init(over data: [UInt8]) throws {
        let operation = "build time-stamp request"
        imprint = Digest.hash(data, algorithm: .sha256)
        // First byte 1...127: a positive INTEGER of exactly these eight bytes, as the token echoes it.
        var generator = SystemRandomNumberGenerator()
        nonce = [UInt8.random(in: 1...127, using: &generator)] + (1..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        defer { ERR_clear_error() }
        guard let request = TS_REQ_new(), let message = TS_MSG_IMPRINT_new(), let algorithm = X509_ALGOR_new(),
              let number = BN_bin2bn(nonce, Int32(nonce.count), nil) else { throw CryptoError.openSSL(operation) }
        defer { TS_REQ_free(request); TS_MSG_IMPRINT_free(message); X509_ALGOR_free(algorithm); BN_free(number) }
        guard let integer = BN_to_ASN1_INTEGER(number, nil) else { throw CryptoError.openSSL(operation) }
        defer { ASN1_INTEGER_free(integer) }
        // The set_* calls copy their argument; `&` keeps the imprint's pointer valid for its call.
        var imprintBytes = imprint
        guard X509_ALGOR_set0(algorithm, OBJ_nid2obj(NID_sha256), V_ASN1_NULL, nil) == 1,
              TS_MSG_IMPRINT_set_algo(message, algorithm) == 1,
              TS_MSG_IMPRINT_set_msg(message, &imprintBytes, Int32(imprintBytes.count)) == 1,
              TS_REQ_set_version(request, 1) == 1,
              TS_REQ_set_msg_imprint(request, message) == 1,
              TS_REQ_set_nonce(request, integer) == 1,
              TS_REQ_set_cert_req(request, 1) == 1 else { throw CryptoError.openSSL(operation) }
        der = try DER.encode(operation) { i2d_TS_REQ(request, $0) }
    }
}
