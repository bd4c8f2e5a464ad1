import COpenSSL
import FoundationEssentials

/// An OCSP request (RFC 6960) about one certificate: its CertID (SHA-1, as responders index
/// certificates) and a fresh nonce the answer must carry back.
public struct OCSPRequest: Sendable {
    public let der: [UInt8]
    public let nonce: [UInt8]

    public init(certificate: Certificate, issuer: Certificate) throws {
        let operation = "make an OCSP request"
        guard let request = OCSP_REQUEST_new() else { throw CryptoError.openSSL(operation) }
        defer { OCSP_REQUEST_free(request) }
        guard let id = OCSP_cert_to_id(nil, certificate.x509, issuer.x509) else { throw CryptoError.openSSL(operation) }
        guard OCSP_request_add0_id(request, id) != nil else {
            OCSP_CERTID_free(id)
            throw CryptoError.openSSL(operation)
        }
        var nonce = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&nonce, Int32(nonce.count)) == 1, OCSP_request_add1_nonce(request, &nonce, Int32(nonce.count)) == 1 else {
            throw CryptoError.openSSL(operation)
        }
        der = try DER.encode(operation) { i2d_OCSP_REQUEST(request, $0) }
        self.nonce = nonce
    }
}

/// What a checked OCSP response says about the certificate, and the response itself (DER), which
/// a manifest can carry so that verifiers need no network.
public struct OCSPStatus: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case good
        case revoked(at: Date, reason: Int?)
        case unknown

        /// From a SingleResponse's certStatus, as OCSP_resp_find_status / OCSP_single_get0_status give it.
        init(status: Int32, revokedAt: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?, reason: Int32, operation: String) throws {
            switch status {
            case V_OCSP_CERTSTATUS_GOOD: self = .good
            case V_OCSP_CERTSTATUS_REVOKED:
                guard let at = Certificate.date(revokedAt) else {
                    throw CryptoError(operation: operation, reason: "the revocation time is malformed")
                }
                self = .revoked(at: at, reason: reason >= 0 ? Int(reason) : nil)
            default: self = .unknown
            }
        }
    }

    public let verdict: Verdict
    public let producedAt: Date
    public let thisUpdate: Date
    /// nil: the responder says newer information is always available.
    public let nextUpdate: Date?
    public let der: [UInt8]
}

public enum OCSPResponse {
    /// How far a responder's clock may be from ours.
    public static let clockSkew: TimeInterval = 300

    /// Parses `der` (hostile input) and checks that it answers about `certificate`: a successful
    /// response, signed by its issuer or a responder the issuer delegated (OCSPSigning EKU) that
    /// chains to `anchors`, for the same CertID, carrying `request`'s nonce when a request is
    /// given, and current at `now`. Throws with the reason when any of that fails.
    public static func check(_ der: [UInt8], certificate: Certificate, issuer: Certificate, intermediates: [Certificate] = [],
                             anchors: [Certificate], request: OCSPRequest?, now: Date) throws -> OCSPStatus {
        let operation = "check the OCSP response"
        defer { ERR_clear_error() }
        let response = try DER.decode(der, "parse the OCSP response", { d2i_OCSP_RESPONSE(nil, $0, $1) }, free: OCSP_RESPONSE_free)
        defer { OCSP_RESPONSE_free(response) }
        let status = OCSP_response_status(response)
        guard status == OCSP_RESPONSE_STATUS_SUCCESSFUL else {
            throw CryptoError(operation: operation, reason: "the responder answered \(String(cString: OCSP_response_status_str(Int(status))))")
        }
        guard let basic = OCSP_response_get1_basic(response) else {
            throw CryptoError(operation: operation, reason: "the response holds no basic response")
        }
        defer { OCSP_BASICRESP_free(basic) }
        if let request {
            let parsed = try DER.decode(request.der, "parse the OCSP request", { d2i_OCSP_REQUEST(nil, $0, $1) }, free: OCSP_REQUEST_free)
            defer { OCSP_REQUEST_free(parsed) }
            guard OCSP_check_nonce(parsed, basic) == 1 else {
                throw CryptoError(operation: operation, reason: "the response does not carry the request's nonce (a replayed answer?)")
            }
        }
        try verifySigner(basic, issuer: issuer, intermediates: intermediates, anchors: anchors, operation: operation)

        guard let id = OCSP_cert_to_id(nil, certificate.x509, issuer.x509) else { throw CryptoError.openSSL(operation) }
        defer { OCSP_CERTID_free(id) }
        var certificateStatus: Int32 = -1, reason: Int32 = -1
        var revokedAt: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?, nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        guard OCSP_resp_find_status(basic, id, &certificateStatus, &reason, &revokedAt, &thisUpdate, &nextUpdate) == 1 else {
            throw CryptoError(operation: operation, reason: "the response is not about this certificate")
        }
        guard let this = Certificate.date(thisUpdate), let produced = Certificate.date(OCSP_resp_get0_produced_at(basic)) else {
            throw CryptoError(operation: operation, reason: "the response's times are malformed")
        }
        let next = nextUpdate.flatMap { Certificate.date($0) }
        guard this <= now + clockSkew else {
            throw CryptoError(operation: operation, reason: "the response is from the future (thisUpdate \(this.ISO8601Format()))")
        }
        if let next, next < now - clockSkew {
            throw CryptoError(operation: operation, reason: "the response is stale (nextUpdate \(next.ISO8601Format()))")
        }
        let verdict = try OCSPStatus.Verdict(status: certificateStatus, revokedAt: revokedAt, reason: reason, operation: operation)
        return OCSPStatus(verdict: verdict, producedAt: produced, thisUpdate: this, nextUpdate: next, der: der)
    }

    /// The signer must be the issuer, or hold OCSPSigning and be issued by it (OpenSSL's
    /// OCSP_basic_verify checks both), and chain to `anchors`.
    private static func verifySigner(_ basic: OpaquePointer, issuer: Certificate, intermediates: [Certificate],
                                     anchors: [Certificate], operation: String) throws {
        guard let store = X509_STORE_new() else { throw CryptoError.openSSL(operation) }
        defer { X509_STORE_free(store) }
        for anchor in anchors where X509_STORE_add_cert(store, anchor.x509) != 1 { throw CryptoError.openSSL(operation) }
        // An intermediate may itself be the organization's anchor.
        X509_STORE_set_flags(store, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        guard let untrusted = lens_sk_X509_new_null() else { throw CryptoError.openSSL(operation) }
        defer { lens_sk_X509_free(untrusted) }
        for certificate in [issuer] + intermediates where lens_sk_X509_push(untrusted, certificate.x509) <= 0 {
            throw CryptoError.openSSL(operation)
        }
        guard OCSP_basic_verify(basic, untrusted, store, 0) == 1 else {
            let detail = CryptoError.openSSL(operation).reason
            throw CryptoError(operation: operation,
                              reason: "the response is not signed by the issuer or a responder it delegated, chaining to the trust anchor (\(detail))")
        }
    }
}

extension Certificate {
    /// The OCSP responders its authorityInfoAccess names.
    public var ocspURLs: [String] {
        guard let joined = lens_X509_ocsp_urls(x509) else { return [] }
        defer { lens_OPENSSL_free(joined) }
        return String(cString: joined).split(separator: "\n").map(String.init)
    }
}
