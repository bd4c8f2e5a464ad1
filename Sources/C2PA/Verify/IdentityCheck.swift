import Foundation
import LensCrypto

/// CAWG identity assertions (`cawg.identity`) with an X.509 signature (`cawg.x509.cose`):
/// the COSE signature over the signer payload is checked like a claim signature and reported
/// under CAWG's codes, as c2pa-rs remaps them. Like c2pa-rs, a failed identity does not make the
/// manifest Invalid (ValidationState tolerates `cawg.x509.*`); other signature types are read
/// and named, not checked. c2pa-rs judges identity credentials against a CAWG trust list kept
/// apart from the C2PA one; lensd has none, so an identity is at best valid, never trusted.
struct IdentityCheck {
    static let x509SignatureType = "cawg.x509.cose"
    /// Failure codes that concern one identity, never the manifest's validity.
    static let toleratedPrefix = "cawg.x509."

    /// The claim-signature codes the X.509 check emits, and their CAWG names (c2pa-rs x509_status_remap).
    private static let remapped: [String: String] = [
        StatusCode.algorithmUnsupported: "cawg.x509.algorithm.unsupported",
        StatusCode.signingCredentialUntrusted: "cawg.x509.credential.untrusted",
        StatusCode.signingCredentialInvalid: "cawg.x509.credential.invalid",
        StatusCode.signingCredentialExpired: "cawg.x509.signature.outsideValidity",
        StatusCode.claimSignatureMismatch: "cawg.x509.signature.mismatch",
    ]

    let now: Date

    /// One line for the report: the signature type and, for X.509, the signer and its verdict.
    func check(_ box: JUMBFSuperbox, url: String, log: inout StatusLog) -> String {
        guard let bytes = box.content("cbor"), let cbor = try? CBORDecoder.decode(bytes),
              let payload = cbor["signer_payload"], let type = payload["sig_type"]?.textValue,
              let signature = cbor["signature"]?.bytesValue else {
            log.add(.informational, "cawg.identity.malformed", "identity assertion could not be read", url: url)
            return "unreadable identity assertion"
        }
        guard type == Self.x509SignatureType else { return "\(type) (not checked by lensd)" }
        var own = StatusLog()
        let signer = SignatureCheck(anchors: [], now: now).check(cose: signature, payload: payload.encoded(sortingKeys: false),
                                                                 url: url, log: &own)
        for status in own.statuses {
            guard let code = Self.remapped[status.code] else { continue }
            log.add(status.kind, code, status.explanation, url: url)
        }
        let valid = own.statuses.contains { $0.code == StatusCode.claimSignatureValidated }
        if valid {
            log.add(.success, "cawg.x509.signature.validated", "X.509 identity assertion signature validated", url: url)
            log.add(.success, "cawg.identity.well-formed", "CAWG X.509 identity signature valid", url: url)
        }
        let who = signer.map { $0.subject.oneLine } ?? "unknown signer"
        return "\(type): \(who) (\(valid ? "signature valid; no CAWG trust list" : "invalid"))"
    }
}
