import FoundationEssentials
import LensCrypto

/// The RFC 3161 time-stamp in a claim signature's unprotected header (`sigTst2`, or v1 `sigTst`),
/// checked as c2pa-rs checks it: token signature, message imprint over the countersigned bytes,
/// TSA certificate with EKU timeStamping chaining to a trust anchor, or a listed CA trusted, at
/// genTime (with no trust anchors at all there is nothing to check it against, and c2pa-rs
/// counts it trusted). Every
/// problem is informational; only a stamp that passes all of it moves the signing time.
struct TimeStampCheck {
    let trust: TrustPolicy

    /// A stamp that verified from a trusted TSA: its genTime, and who vouches for it.
    struct TrustedTime {
        var time: Date
        var authority: DistinguishedName
    }

    /// The stamp's time when it verifies and its TSA is trusted; nil otherwise (validity is then judged now).
    func trustedTime(of cose: COSESign1, payload: [UInt8], url: String, log: inout StatusLog) -> TrustedTime? {
        let stored: (container: CBOR, version: Int)
        if let v2 = cose.unprotectedHeader["sigTst2"] {
            stored = (v2, 2)
        } else if let v1 = cose.unprotectedHeader["sigTst"] {
            stored = (v1, 1)
        } else {
            return nil
        }
        guard let tokens = stored.container["tstTokens"]?.arrayValue, tokens.count == 1,
              let der = tokens[0]["val"]?.bytesValue else {
            log.add(.informational, StatusCode.timeStampMalformed, "a manifest holds exactly one time-stamp token", url: url)
            return nil
        }
        // v2 stamps the signature (its CBOR bstr encoding), v1 the payload (the claim), both inside a COSE countersignature structure.
        let stamped = stored.version == 2 ? CBOR.bytes(cose.signature).encoded() : payload
        return trustedTime(token: der, over: COSESign1.countersigned(protectedBytes: cose.protectedBytes, stamped: stamped),
                           url: url, log: &log)
    }

    /// The time of the token `der` when it verifies, its imprint is the digest of `data` and its TSA is trusted.
    func trustedTime(token der: [UInt8], over data: [UInt8], url: String, log: inout StatusLog) -> TrustedTime? {
        let token: TimeStampToken
        do { token = try TimeStampToken(der: der) } catch {
            log.add(.informational, StatusCode.timeStampMalformed, "could not parse timestamp data: \(error)", url: url)
            return nil
        }
        if let problem = token.signatureProblem() {
            log.add(.informational, StatusCode.timeStampUntrusted, "timestamp signed data did not match signature: \(problem)", url: url)
            return nil
        }
        guard token.imprintMatches(data) else {
            log.add(.informational, StatusCode.timeStampMismatch, "timestamp message digest did not match", url: url)
            return nil
        }
        log.add(.success, StatusCode.timeStampValidated, "timestamp message digest matched", url: url)
        let tsa = token.certificates[0]
        guard !trust.trustsTimeStampAuthorities || token.trustProblem(anchors: trust.timeStampAnchors(at: token.genTime)) == nil else {
            log.add(.informational, StatusCode.timeStampUntrusted, "timestamp cert untrusted: \(tsa.subject.oneLine)", url: url)
            return nil
        }
        log.add(.success, StatusCode.timeStampTrusted, "timestamp cert trusted: \(tsa.subject.oneLine)", url: url)
        return TrustedTime(time: token.genTime, authority: tsa.subject)
    }
}
