import FoundationEssentials
import LensCrypto

/// A CAWG identity signed by identity claims aggregation (`cawg.identity_claims_aggregation`,
/// CAWG identity 1.1 §8.1): a W3C verifiable credential secured with COSE (VC-JOSE-COSE §3.3.1),
/// checked step by step as c2pa-rs 0.91's IcaSignatureVerifier checks it, with its codes. Some
/// failures end the check (the COSE structure, its algorithm, the credential itself); the others
/// are each reported and the check goes on. lensd configures no trusted credential issuers, as
/// c2pa-rs by default: a credential whose signature holds is `cawg.ica.untrusted_issuer`
/// (informational) and never `cawg.ica.credential_valid`.
struct ClaimsAggregationSignature {
    static let signatureType = "cawg.identity_claims_aggregation"
    static let contentType = "application/vc"
    private static let contentTypeLabel = CBOR.unsigned(3)

    let now: Date

    struct Outcome {
        /// One line for the report.
        var line: String
        /// The credential, when it reads (c2pa-rs shows it in place of the assertion).
        var credential: ClaimsAggregationCredential?
    }

    func check(_ assertion: IdentityAssertion, url: String, log: inout StatusLog) -> Outcome {
        func fail(_ code: String, _ explanation: String) { log.add(.failure, code, explanation, url: url) }
        func ended(_ why: String) -> Outcome { Outcome(line: "\(Self.signatureType): \(why)", credential: nil) }

        guard case .tagged(COSESign1.tag, _)? = try? CBORDecoder.decode(assertion.signature),
              let cose = try? COSESign1(encoded: assertion.signature),
              cose.protectedHeader.mapPairs != nil, cose.unprotectedHeader.mapPairs != nil else {
            fail(CAWGStatus.icaInvalidCOSESign1, "Invalid COSE_Sign1 data structure")
            return ended("not a COSE_Sign1")
        }
        guard cose.protectedHeader[COSESign1.algorithmLabel]?.intValue == COSEAlgorithm.ed25519.coseIdentifier else {
            fail(CAWGStatus.icaInvalidAlgorithm, "Invalid COSE_Sign1 signature algorithm")
            return ended("not signed with EdDSA")
        }
        if cose.protectedHeader[Self.contentTypeLabel]?.textValue != Self.contentType {
            fail(CAWGStatus.icaInvalidContentType, "Invalid COSE_Sign1 content type header")
        }
        guard let payload = cose.payload else {
            fail(CAWGStatus.icaInvalidCredential, "Missing COSE_Sign1 payload")
            return ended("no credential")
        }
        let credential: ClaimsAggregationCredential
        do { credential = try ClaimsAggregationCredential(json: payload) } catch {
            fail(CAWGStatus.icaInvalidCredential, "Invalid JSON-LD for verifiable credential")
            return ended("unreadable credential (\(error))")
        }

        var verdict = issuerSignature(of: cose, payload: payload, issuer: credential.issuer, url: url, log: &log)
        let stamp = timeStamp(of: cose, payload: payload, url: url, log: &log)
        for problem in validityProblems(credential, stampedAt: stamp) {
            fail(problem.code, problem.explanation)
            verdict = problem.explanation
        }
        if !Self.agree(assertion.signerPayload, credential.signerPayload) {
            fail(CAWGStatus.icaSignerPayloadMismatch, "c2paAsset does not match signer_payload")
            verdict = "its c2paAsset does not match the signer payload"
        }
        return Outcome(line: "\(Self.signatureType): issued by \(credential.issuer) (\(verdict))", credential: credential)
    }

    /// The issuer's signature over the credential, with its key from the issuer's DID; what the
    /// report says of it.
    private func issuerSignature(of cose: COSESign1, payload: [UInt8], issuer: String, url: String, log: inout StatusLog) -> String {
        do throws(DecentralizedIdentifier.ResolutionError) {
            let key = try DecentralizedIdentifier(issuer).publicKey()
            let message = COSESign1.toBeSigned(protectedBytes: cose.protectedBytes, payload: payload)
            guard key.verify(signature: cose.signature, message: message, scheme: .ed25519) else {
                log.add(.failure, CAWGStatus.icaSignatureMismatch, "Signature does not match credential", url: url)
                return "the issuer's signature does not match"
            }
            log.add(.informational, CAWGStatus.icaUntrustedIssuer, "ICA issuer is not a trusted issuer", url: url)
            return "signature valid; issuer not on a trusted list"
        } catch {
            let (code, explanation, why): (String, String, String) = switch error {
            case .unsupported(let why): (CAWGStatus.icaInvalidIssuer, "Invalid issuer DID", why)
            case .unavailable(let why): (CAWGStatus.icaDIDUnavailable, "Unable to resolve issuer DID", why)
            case .invalidDocument(let why): (CAWGStatus.icaInvalidDIDDocument, "Invalid issuer DID document", why)
            }
            log.add(.failure, code, explanation, url: url)
            return why
        }
    }

    /// The credential's own RFC 3161 time-stamp (sigTst2/sigTst in its COSE header), checked as a
    /// claim signature's is but with no TSA trust list (c2pa-rs passes every TSA here).
    private func timeStamp(of cose: COSESign1, payload: [UInt8], url: String, log: inout StatusLog) -> Date? {
        var stampLog = StatusLog()
        let time = TimeStampCheck(trust: TrustPolicy()).trustedTime(of: cose, payload: payload, url: url, log: &stampLog)
        if time != nil {
            log.add(.success, CAWGStatus.icaTimeStampValidated, "Time stamp validated", url: url)
        } else if !stampLog.statuses.isEmpty {
            log.add(.failure, CAWGStatus.icaTimeStampInvalid, "Time stamp does not match credential", url: url)
        }
        return time?.time
    }

    /// CAWG §8.1.1.4: validFrom is required and past (now, and at the time-stamp); validUntil, if
    /// any, not yet past. One problem at most for each bound, as c2pa-rs reports them.
    private func validityProblems(_ credential: ClaimsAggregationCredential, stampedAt stamp: Date?)
        -> [(code: String, explanation: String)] {
        var problems: [(code: String, explanation: String)] = []
        if let from = credential.validFrom {
            if now < from {
                problems.append((CAWGStatus.icaValidFromInvalid, "validFrom is after current date/time"))
            } else if let stamp, stamp < from {
                problems.append((CAWGStatus.icaValidFromInvalid, "validFrom is after CAWG signature time stamp"))
            }
        } else {
            problems.append((CAWGStatus.icaValidFromMissing, "credential has no validFrom"))
        }
        if let until = credential.validUntil {
            if now > until {
                problems.append((CAWGStatus.icaValidUntilInvalid, "validUntil is before current date/time"))
            } else if let stamp, stamp > until {
                problems.append((CAWGStatus.icaValidUntilInvalid, "validUntil is before CAWG signature time stamp"))
            }
        }
        return problems
    }

    /// c2pa-rs's cross-check: the signer payload equals the credential's c2paAsset, where a
    /// reference without `alg` takes the credential's (some signers fill in a default).
    static func agree(_ payload: SignerPayload, _ asset: SignerPayload) -> Bool {
        var patched = payload
        for (index, reference) in patched.referencedAssertions.enumerated()
        where reference.algorithm == nil && index < asset.referencedAssertions.count {
            patched.referencedAssertions[index].algorithm = asset.referencedAssertions[index].algorithm
        }
        return patched == asset
    }
}
