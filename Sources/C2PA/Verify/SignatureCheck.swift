import FoundationEssentials
import LensCrypto

/// A COSE_Sign1 over a detached payload (a claim, or a CAWG identity's signer payload), checked
/// as c2pa-rs checks a claim signature: algorithm, x5chain, the certificate profile, the
/// signature, validity at a trusted time-stamp's time or now, and trust (`TrustPolicy`).
struct SignatureCheck {
    let trust: TrustPolicy
    let now: Date
    /// From a later update's `c2pa.time-stamp` assertion: the signature's validity and its chain's
    /// trust are judged at it when the signature carries no time-stamp of its own, as c2pa-rs
    /// 0.91.3 judges them for a token over the COSE_Sign1's signature bytes.
    var assertedTime: TimeStampCheck.TrustedTime?

    /// The signer, when the signature names one; statuses in the claim signature's codes.
    func check(cose coseBytes: [UInt8], payload: [UInt8], url: String, log: inout StatusLog) -> SignerSummary? {
        let cose: COSESign1
        do { cose = try COSESign1(encoded: coseBytes) } catch {
            log.add(.failure, StatusCode.claimSignatureMismatch, "claim signature does not parse: \(error)", url: url)
            return nil
        }
        guard let algorithm = cose.algorithm else {
            log.add(.failure, StatusCode.algorithmUnsupported, "signature algorithm is not supported", url: url)
            return nil
        }
        let chain: [Certificate]
        do {
            chain = try cose.certificateChainDER.map { try Certificate(der: $0) }
        } catch {
            // An unreadable certificate can be neither in the profile nor trusted (c2pa-rs reports both).
            log.add(.failure, StatusCode.signingCredentialInvalid, "certificate does not parse: \(error)", url: url)
            log.add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: it does not parse", url: url)
            return nil
        }
        guard let leaf = chain.first else {
            log.add(.failure, StatusCode.signingCredentialInvalid, "signature carries no certificate", url: url)
            return nil
        }
        // A trusted time-stamp says when the claim was signed; without one, validity is judged now.
        let ownStamp = TimeStampCheck(trust: trust).trustedTime(of: cose, payload: payload, url: url, log: &log)
        let stamp = ownStamp ?? assertedTime
        let stampTime = ownStamp?.time
        let signingTime = stamp?.time ?? now
        let revocation = StapledOCSPCheck(trust: trust, now: now, signingTime: stampTime).check(cose, chain: chain, url: url, log: &log)
        // Like c2pa-rs, every check runs even after one fails, so a report lists all that is wrong.
        var summary = SignerSummary(subject: leaf.subject, issuer: leaf.issuer, notBefore: leaf.notBefore,
                                    notAfter: leaf.notAfter, algorithm: algorithm.rawValue, timeStamp: stamp?.time,
                                    timeStampAuthority: stamp?.authority, revocation: revocation)
        let keyMatches = algorithm.matches(leaf.publicKey)
        let violation = keyMatches ? SigningCertificateProfile.violation(leaf, allowedExtendedKeyUsages: trust.signerExtendedKeyUsages) : nil
        if !keyMatches {
            log.add(.failure, StatusCode.signingCredentialInvalid, "certificate key does not match \(algorithm.rawValue)", url: url)
        } else if let violation {
            log.add(.failure, StatusCode.signingCredentialInvalid, violation.description, url: url)
        }
        let inside = signingTime >= leaf.notBefore && signingTime <= leaf.notAfter
        let message = COSESign1.toBeSigned(protectedBytes: cose.protectedBytes, payload: payload)
        let signatureValid = leaf.publicKey.verify(signature: cose.signature, message: message, scheme: algorithm.scheme)
        if signatureValid {
            log.add(.success, StatusCode.claimSignatureValidated, "claim signature valid", url: url)
            if inside {
                log.add(.success, StatusCode.claimSignatureInsideValidity, "claim signature inside validity", url: url)
            }
        } else {
            log.add(.failure, StatusCode.claimSignatureMismatch, "claim signature is not valid", url: url)
        }
        // A key the algorithm cannot use, or a valid signature by a leaf outside the profile, ends
        // the check (c2pa-rs 0.91 looks no further: SigningCertificateProfileTests); any other
        // credential its EKU policy refuses, or outside its validity at the signing time, is not trusted.
        if !keyMatches || (signatureValid && violation?.trustIsEvaluated == false) {
            return summary
        } else if violation != nil {
            log.add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: not a valid C2PA signer", url: url)
        } else if !inside {
            log.add(.failure, StatusCode.signingCredentialExpired, "certificate expired or not yet valid at \(signingTime)", url: url)
            log.add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: outside its validity", url: url)
        } else {
            switch trust.evaluate(leaf: leaf, intermediates: Array(chain.dropFirst()), signingTime: signingTime,
                                  chainTime: stamp?.time) {
            case .trusted(let listing):
                summary.trustListing = listing
                let source = listing.map { "\($0.entity) on \($0.list)" } ?? "a trust anchor"
                log.add(.success, StatusCode.signingCredentialTrusted, "signing certificate trusted, found in trust list (\(source))", url: url)
            case .untrusted(let reason, let listing):
                summary.trustListing = listing
                log.add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: \(reason)", url: url)
            }
        }
        return summary
    }
}
