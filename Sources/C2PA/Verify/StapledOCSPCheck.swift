import FoundationEssentials
import LensCrypto

/// The OCSP response stapled to a claim signature (`rVals.ocspVals`, the first one), judged as
/// c2pa-rs 0.91.3 judges it: bound to the signer by its CertID (the issuer from the x5chain, or
/// the trust anchor that issued a leaf sent alone — as c2pa-python 0.38.1 does), signed by a
/// responder that passes the end-entity profile with the OCSPSigning EKU and chains to the trust
/// anchors. A response that fails any of that is ignored, as if absent. A usable one says the
/// signer is not revoked (success `signingCredential.ocsp.notRevoked`) or revoked (failure
/// `signingCredential.ocsp.revoked`: the file is Invalid; c2pa-rs 0.91.3 still judges the chain's
/// trust, and so does lensd).
struct StapledOCSPCheck {
    let trust: TrustPolicy
    let now: Date
    /// A trusted time-stamp's time, when the signature has one: the answers are judged at it.
    let signingTime: Date?

    /// c2pa-rs reads a missing nextUpdate as producedAt + 24 h.
    static let defaultValidity: TimeInterval = 24 * 3600
    /// RFC 5280 CRLReason removeFromCRL.
    static let removeFromCRL = 8

    /// What a usable response said; nil when there is none or it is ignored.
    func check(_ cose: COSESign1, chain: [Certificate], url: String, log: inout StatusLog) -> Revocation? {
        guard let der = cose.unprotectedHeader[COSESign1.revocationLabel]?[COSESign1.ocspLabel]?.arrayValue?.first?.bytesValue else {
            // Nothing stapled, and verifiers here do not fetch: c2pa-rs says so.
            log.add(.informational, StatusCode.ocspSkipped, "no stapled OCSP response; revocation not checked", url: url)
            return nil
        }
        guard let issuer = issuer(of: chain),
              let response = try? StapledOCSPResponse(der: der, certificate: chain[0], issuer: issuer),
              let finding = finding(in: response),
              responderIsTrusted(response, signerChain: chain, signerIssuer: issuer) else { return nil }
        switch finding {
        case .notRevoked:
            log.add(.success, StatusCode.ocspNotRevoked, "signing cert not revoked: \(chain[0].serialNumberHex)", url: url)
        case .revoked:
            log.add(.failure, StatusCode.ocspRevoked, "signing cert revoked: \(chain[0].serialNumberHex)", url: url)
        case .silent:
            break
        }
        return Revocation(finding: finding, producedAt: response.producedAt, answer: response.answers.first)
    }

    private func issuer(of chain: [Certificate]) -> Certificate? {
        if chain.count >= 2 { return chain[1] }
        return chain.first.flatMap { leaf in trust.responderAnchors(at: signingTime ?? now).first { $0.subject == leaf.issuer } }
    }

    /// The first answer that settles the question, else whether any said revoked (c2pa-rs keeps
    /// only that of the unsettled ones); nil when nothing was said.
    private func finding(in response: StapledOCSPResponse) -> Revocation.Finding? {
        var revoked = false
        for answer in response.answers {
            switch answer.verdict {
            case .good:
                let next = answer.nextUpdate ?? response.producedAt + Self.defaultValidity
                let inRange = signingTime.map { $0 < answer.thisUpdate || $0 <= next } ?? (now >= answer.thisUpdate)
                if inRange { return .notRevoked }
                revoked = true
            case .revoked(let at, let reason) where reason == Self.removeFromCRL:
                if at <= signingTime ?? now { revoked = true }
            case .revoked(let at, _?):
                // Signed before the revocation (only a time-stamp can say so): the answer settles it, saying nothing.
                guard let signed = signingTime, signed < at else { revoked = true; continue }
                return .silent
            case .revoked:
                revoked = true
            case .unknown:
                break  // c2pa-rs's signingCredential.ocsp.unknown stays in its scratch log
            }
        }
        return revoked ? .revoked : nil
    }

    /// The responder (the response's first certificate) as c2pa-rs checks it: the end-entity
    /// profile with OCSPSigning as the only EKU allowed, valid at the signing time, trusted. Its
    /// path may be completed from the signer's x5chain when it names the signer's issuer.
    private func responderIsTrusted(_ response: StapledOCSPResponse, signerChain: [Certificate], signerIssuer: Certificate) -> Bool {
        guard let responder = response.certificates.first,
              SigningCertificateProfile.violation(responder, allowedExtendedKeyUsages: [ExtendedKeyUsage.ocspSigning]) == nil
        else { return false }
        let at = signingTime ?? now
        guard at >= responder.notBefore && at <= responder.notAfter else { return false }
        var path = Array(response.certificates.dropFirst())
        if response.certificates.count == 1, signerChain.count >= 2, responder.issuer == signerIssuer.subject {
            path = Array(signerChain.dropFirst())
        }
        return ChainVerifier.verify(leaf: responder, intermediates: path, anchors: trust.responderAnchors(at: at), at: signingTime) == nil
    }
}

/// What a stapled OCSP response said about the signing certificate.
public struct Revocation: Sendable {
    public enum Finding: Sendable, Equatable {
        case notRevoked
        case revoked
        /// Revoked only after a time-stamped signing time: nothing to report, nothing against it.
        case silent
    }

    public var finding: Finding
    public var producedAt: Date
    /// The response's first answer about the signer, when it has one.
    public var answer: StapledOCSPResponse.Answer?

    public var verdict: OCSPStatus.Verdict? { answer?.verdict }
}
