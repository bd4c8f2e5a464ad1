import COpenSSL
import FoundationEssentials

/// An OCSP response found stapled to a signature, read as c2pa-rs reads one: no request (so no
/// nonce), no freshness rule of its own, and no trust decision — the caller judges the responder
/// (`certificates[0]`) and the times. What this establishes: the bytes are a successful basic
/// response, it carries certificates, and its signature verifies with the first one's key.
public struct StapledOCSPResponse: Sendable {
    /// One SingleResponse about the certificate asked about.
    public struct Answer: Sendable, Equatable {
        public let verdict: OCSPStatus.Verdict
        public let thisUpdate: Date
        public let nextUpdate: Date?
    }

    public let producedAt: Date
    /// The certificates the response carries; the first signed it.
    public let certificates: [Certificate]
    /// The answers whose CertID (under the hash the response chose) names `certificate` issued by
    /// `issuer`, in the response's order; answers about other certificates are left out.
    public let answers: [Answer]
    public let der: [UInt8]

    /// Parses `der` (hostile input); throws with the reason when it is unusable.
    public init(der: [UInt8], certificate: Certificate, issuer: Certificate) throws {
        let operation = "read the stapled OCSP response"
        defer { ERR_clear_error() }
        let response = try DER.decode(der, operation, { d2i_OCSP_RESPONSE(nil, $0, $1) }, free: OCSP_RESPONSE_free)
        defer { OCSP_RESPONSE_free(response) }
        guard OCSP_response_status(response) == OCSP_RESPONSE_STATUS_SUCCESSFUL else {
            throw CryptoError(operation: operation, reason: "the responder did not answer successfully")
        }
        guard let basic = OCSP_response_get1_basic(response) else {
            throw CryptoError(operation: operation, reason: "the response holds no basic response")
        }
        defer { OCSP_BASICRESP_free(basic) }
        certificates = try Self.certificates(of: basic, operation)
        guard let signer = certificates.first else {
            throw CryptoError(operation: operation, reason: "the response carries no certificate to check its signature with")
        }
        try Self.verifySignature(basic, signer: signer, operation)
        guard let produced = Certificate.date(OCSP_resp_get0_produced_at(basic)) else {
            throw CryptoError(operation: operation, reason: "producedAt is malformed")
        }
        producedAt = produced
        answers = try Self.answers(in: basic, certificate: certificate, issuer: issuer, operation)
        self.der = der
    }

    private static func certificates(of basic: OpaquePointer, _ operation: String) throws -> [Certificate] {
        guard let stack = OCSP_resp_get0_certs(basic) else { return [] }
        return try (0..<lens_sk_X509_num(stack)).map { index in
            guard let x509 = lens_sk_X509_value(stack, index) else { throw CryptoError.openSSL(operation) }
            return try Certificate(der: try DER.encode(operation) { i2d_X509(x509, $0) })
        }
    }

    /// Only the signature: OCSP_NOVERIFY leaves the responder's chain and delegation to the caller.
    private static func verifySignature(_ basic: OpaquePointer, signer: Certificate, _ operation: String) throws {
        guard let store = X509_STORE_new() else { throw CryptoError.openSSL(operation) }
        defer { X509_STORE_free(store) }
        guard let certificates = lens_sk_X509_new_null() else { throw CryptoError.openSSL(operation) }
        defer { lens_sk_X509_free(certificates) }
        guard lens_sk_X509_push(certificates, signer.x509) > 0 else { throw CryptoError.openSSL(operation) }
        guard OCSP_basic_verify(basic, certificates, store, UInt(OCSP_NOINTERN | OCSP_NOVERIFY)) == 1 else {
            throw CryptoError(operation: operation, reason: "its signature does not verify with its first certificate")
        }
    }

    private static func answers(in basic: OpaquePointer, certificate: Certificate, issuer: Certificate,
                                _ operation: String) throws -> [Answer] {
        var answers: [Answer] = []
        for index in 0..<OCSP_resp_count(basic) {
            guard let single = OCSP_resp_get0(basic, index), let id = OCSP_SINGLERESP_get0_id(single) else { continue }
            var digest: OpaquePointer?
            guard OCSP_id_get0_info(nil, &digest, nil, nil, id) == 1,
                  let name = OBJ_nid2sn(OBJ_obj2nid(digest)), let md = EVP_get_digestbyname(name),
                  let ours = OCSP_cert_to_id(md, certificate.x509, issuer.x509) else { continue }
            defer { OCSP_CERTID_free(ours) }
            guard OCSP_id_cmp(ours, id) == 0 else { continue }
            var reason: Int32 = -1
            var revokedAt: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
            var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?, nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
            let status = OCSP_single_get0_status(single, &reason, &revokedAt, &thisUpdate, &nextUpdate)
            guard let this = Certificate.date(thisUpdate) else {
                throw CryptoError(operation: operation, reason: "thisUpdate is malformed")
            }
            let verdict = try OCSPStatus.Verdict(status: status, revokedAt: revokedAt, reason: reason, operation: operation)
            answers.append(Answer(verdict: verdict, thisUpdate: this, nextUpdate: nextUpdate.flatMap { Certificate.date($0) }))
        }
        return answers
    }
}
