import COpenSSL
import LensSystem
import FoundationEssentials
import Glibc

/// An RFC 3161 TimeStampToken (a CMS SignedData over a TSTInfo): when the TSA says it saw a
/// digest, and the checks a verifier makes before believing it. The PKCS7 is never mutated
/// after init; verification reads it only.
public final class TimeStampToken: Sendable {
    private let handle: CHandle<UnsafeMutablePointer<PKCS7>>
    private var token: UnsafeMutablePointer<PKCS7> { handle.pointer }
    public let genTime: Date
    /// The TSA's signing certificate, then every other certificate the token carries.
    public let certificates: [Certificate]
    public let imprintAlgorithm: DigestAlgorithm?
    public let imprint: [UInt8]
    /// The request's nonce echoed back (big-endian magnitude), nil when the token has none.
    public let nonce: [UInt8]?

    /// A TimeStampToken, or a whole TimeStampResp (what sigTst v1 writers stored): its token.
    public convenience init(der: [UInt8]) throws {
        guard !der.isEmpty else { throw CryptoError(operation: "parse time-stamp token", reason: "empty input") }
        if let token = DER.decodePKCS7(der) {
            try self.init(owning: token)
            return
        }
        ERR_clear_error()
        try self.init(response: der)
    }

    /// The token of a TimeStampResp (what a TSA answers), which must say granted.
    public convenience init(response der: [UInt8]) throws {
        let operation = "parse time-stamp response"
        let response = try DER.decode(der, operation, { d2i_TS_RESP(nil, $0, $1) }, free: TS_RESP_free)
        defer { TS_RESP_free(response) }
        let status = ASN1_INTEGER_get(TS_STATUS_INFO_get0_status(TS_RESP_get_status_info(response)))
        guard status == 0 || status == 1 else {  // granted, grantedWithMods
            throw CryptoError(operation: operation, reason: "the TSA did not grant the time-stamp (status \(status))")
        }
        guard let token = TS_RESP_get_token(response), let copy = PKCS7_dup(token) else {
            throw CryptoError(operation: operation, reason: "the time-stamp response holds no token")
        }
        try self.init(owning: copy)
    }

    private init(owning token: UnsafeMutablePointer<PKCS7>) throws {
        let operation = "read time-stamp token"
        let handle = CHandle(owning: token) { PKCS7_free($0) }
        do {
            guard let info = PKCS7_to_TS_TST_INFO(token) else { throw CryptoError.openSSL(operation) }
            defer { TS_TST_INFO_free(info) }
            guard let time = Certificate.date(TS_TST_INFO_get_time(info)) else {
                throw CryptoError(operation: operation, reason: "malformed genTime")
            }
            let message = TS_TST_INFO_get_msg_imprint(info)
            let digest = ASN1_STRING_get0_data(TS_MSG_IMPRINT_get_msg(message))
            imprint = Array(UnsafeBufferPointer(start: digest, count: Int(ASN1_STRING_length(TS_MSG_IMPRINT_get_msg(message)))))
            var object: OpaquePointer?
            X509_ALGOR_get0(&object, nil, nil, TS_MSG_IMPRINT_get_algo(message))
            imprintAlgorithm = object.flatMap { DigestAlgorithm(nid: OBJ_obj2nid($0)) }
            nonce = Self.magnitude(TS_TST_INFO_get_nonce(info))
            genTime = time
            certificates = try Self.certificates(of: token)
        } catch {
            ERR_clear_error()
            throw error
        }
        self.handle = handle
    }

    /// The token alone (a CMS ContentInfo), as C2PA stores it in `sigTst2`.
    public var der: [UInt8] {
        get throws { try DER.encode("encode time-stamp token") { i2d_PKCS7(token, $0) } }
    }

    private static func magnitude(_ integer: UnsafePointer<ASN1_INTEGER>?) -> [UInt8]? {
        guard let integer else { return nil }
        let bytes = ASN1_STRING_get0_data(integer)
        return Array(UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(integer))))
    }

    /// The signer first: the TSA's certificate is the one the SignerInfo names.
    private static func certificates(of token: UnsafeMutablePointer<PKCS7>) throws -> [Certificate] {
        func parse(_ stack: OpaquePointer?) throws -> [Certificate] {
            guard let stack else { return [] }
            return try (0..<lens_sk_X509_num(stack)).map { index in
                try Certificate(der: try DER.encode("encode certificate") { i2d_X509(lens_sk_X509_value(stack, index), $0) })
            }
        }
        let all = try parse(lens_PKCS7_certificates(token))
        guard let signers = PKCS7_get0_signers(token, nil, 0) else {
            throw CryptoError(operation: "read time-stamp token", reason: "the token names no signer it carries")
        }
        defer { lens_sk_X509_free(signers) }
        let signer = try parse(signers)
        return signer + all.filter { !signer.contains($0) }
    }

    /// Whether the token time-stamps exactly `data` (the imprint is its digest).
    public func imprintMatches(_ data: [UInt8]) -> Bool {
        guard let imprintAlgorithm else { return false }
        return Digest.hash(data, algorithm: imprintAlgorithm) == imprint
    }

    /// nil when the token's CMS signature verifies under its own signing certificate and that
    /// certificate may stamp time (EKU timeStamping, valid at genTime); else the reason. Whom
    /// the TSA chains to is the caller's question (`ChainVerifier`).
    public func signatureProblem() -> String? {
        defer { ERR_clear_error() }
        guard let context = TS_VERIFY_CTX_new() else { return CryptoError.openSSL("verify time-stamp").reason }
        defer { TS_VERIFY_CTX_free(context) }
        guard let store = X509_STORE_new() else { return CryptoError.openSSL("verify time-stamp").reason }
        for certificate in certificates { X509_STORE_add_cert(store, certificate.x509) }
        let parameters = X509_STORE_get0_param(store)
        X509_VERIFY_PARAM_set_time(parameters, time_t(genTime.timeIntervalSince1970.rounded(.down)))
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        TS_VERIFY_CTX_set_store(context, store)  // the context owns the store from here
        TS_VERIFY_CTX_set_flags(context, Int32(TS_VFY_SIGNATURE | TS_VFY_VERSION))
        guard TS_RESP_verify_token(context, token) == 1 else { return CryptoError.openSSL("verify time-stamp").reason }
        return nil
    }

    /// nil when the TSA's certificate may stamp time (EKU timeStamping) and chains to one of
    /// `anchors` at genTime; else the reason. The signature itself is `signatureProblem`'s.
    public func trustProblem(anchors: [Certificate]) -> String? {
        let tsa = certificates[0]
        guard tsa.extendedKeyUsage?.contains(ExtendedKeyUsage.timeStamping) == true else {
            return "the TSA certificate \(tsa.subject.oneLine) lacks the timeStamping EKU"
        }
        if let problem = ChainVerifier.verify(leaf: tsa, intermediates: Array(certificates.dropFirst()), anchors: anchors,
                                              at: genTime) {
            return "the TSA certificate \(tsa.subject.oneLine) is not trusted at \(genTime): \(problem)"
        }
        return nil
    }
}

extension DigestAlgorithm {
    init?(nid: Int32) {
        guard let match = Self.allCases.first(where: { EVP_MD_get_type($0.evpMD) == nid }) else { return nil }
        self = match
    }
}
