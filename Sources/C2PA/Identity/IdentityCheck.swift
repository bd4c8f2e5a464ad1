import FoundationEssentials

/// CAWG identity assertions (`cawg.identity`), validated as c2pa-rs 0.91 validates them while it
/// loads a manifest: the padding, the signer payload against the claim's assertions, then the
/// signature by its type — X.509 (`X509IdentitySignature`) or identity claims aggregation
/// (`ClaimsAggregationSignature`). An X.509 identity's failures, and its payload's, concern that
/// identity (the file stays Valid); a claims aggregation failure makes the manifest Invalid, as in
/// c2pa-rs (`CAWGStatus.isToleratedFailure`).
struct IdentityCheck {
    let now: Date
    /// The claim's assertion references, which the signer payload's must be among (c2pa-rs's partial claim).
    let claimReferences: [HashedURI]

    struct Outcome {
        /// One line for the report: the signature type, who signed, and the verdict.
        var line: String
        /// A claims aggregation credential that reads.
        var credential: ClaimsAggregationCredential?
    }

    /// nil when the assertion does not read as one: c2pa-rs then fails to load the manifest.
    func check(_ box: JUMBFSuperbox, url: String, log: inout StatusLog) -> Outcome? {
        guard let bytes = box.content("cbor"), let cbor = try? CBORDecoder.decode(bytes),
              let assertion = try? IdentityAssertion(cbor: cbor) else { return nil }
        checkPadding(assertion, url: url, log: &log)
        checkReferences(assertion.signerPayload, url: url, log: &log)
        switch assertion.signerPayload.signatureType {
        case X509IdentitySignature.signatureType:
            return Outcome(line: X509IdentitySignature(now: now).check(assertion, url: url, log: &log))
        case ClaimsAggregationSignature.signatureType:
            let outcome = ClaimsAggregationSignature(now: now).check(assertion, url: url, log: &log)
            return Outcome(line: outcome.line, credential: outcome.credential)
        case let other:
            log.add(.failure, CAWGStatus.signatureTypeUnknown, "unsupported signature type", url: url)
            return Outcome(line: "\(other) (a signature type c2pa-rs does not know)")
        }
    }

    /// pad1 and pad2 must be zeros; one report for both.
    private func checkPadding(_ assertion: IdentityAssertion, url: String, log: inout StatusLog) {
        if assertion.pad1.contains(where: { $0 != 0 }) || (assertion.pad2 ?? []).contains(where: { $0 != 0 }) {
            log.add(.failure, CAWGStatus.padInvalid, "invalid value in pad fields", url: url)
        }
    }

    /// Every referenced assertion is one of the claim's, by URL (relative or absolute) and hash;
    /// a hard binding among them; none twice.
    private func checkReferences(_ payload: SignerPayload, url: String, log: inout StatusLog) {
        for reference in payload.referencedAssertions {
            let match = claimReferences.first { $0.url == reference.url || Self.relative($0.url) == reference.url }
            if match?.hash != reference.hash {
                log.add(.failure, CAWGStatus.assertionMismatch, match == nil ? "referenced assertion not in claim"
                    : "referenced assertion's hash differs from the claim's", url: url)
            }
        }
        if !payload.referencedAssertions.contains(where: { $0.url.split(separator: "/").last?.hasPrefix("c2pa.hash.") == true }) {
            log.add(.failure, CAWGStatus.hardBindingMissing, "no hard binding assertion", url: url)
        }
        var seen = Set<String>()
        for reference in payload.referencedAssertions where !seen.insert(reference.url).inserted {
            log.add(.failure, CAWGStatus.assertionDuplicate, "multiple references to same assertion", url: url)
        }
    }

    /// "self#jumbf=/c2pa/LABEL/c2pa.assertions/X" → "self#jumbf=c2pa.assertions/X" (c2pa-rs drops
    /// the first "/c2pa/…/" it finds).
    private static func relative(_ url: String) -> String {
        guard let start = url.firstRange(of: "/c2pa/"),
              let end = url[start.upperBound...].firstIndex(of: "/") else { return url }
        var relative = url
        relative.replaceSubrange(start.lowerBound...end, with: "")
        return relative
    }
}
