import FoundationEssentials
import LensCrypto

/// `c2pa.time-stamp` assertions (C2PA 2.2 §18.18), read as c2pa-rs 0.91 reads them: those of
/// every manifest in the store, each token checked against the claim signature of the manifest
/// it names (imprint over its COSE_Sign1's `signature` field, CMS signature, TSA trusted at
/// genTime). A manifest so time-stamped has its signing certificate's validity judged at that
/// time. A token that does not check out gives no time and is reported as informational (c2pa-rs
/// 0.91.3 ignores it silently), so the verdict stays the reference's; an assertion that does not
/// parse is `assertion.timestamp.malformed`.
struct TimeStampAssertionCheck {
    let trust: TrustPolicy

    /// Manifest label → the trusted time a time-stamp assertion gives it.
    func times(in store: ManifestStore, log: inout StatusLog) -> [String: TimeStampCheck.TrustedTime] {
        var times: [String: TimeStampCheck.TrustedTime] = [:]
        for manifest in store.manifests {
            for box in manifest.assertions where Labels.base(box.label ?? "") == Labels.timeStamp {
                let url = "self#jumbf=/\(Labels.manifestStore)/\(manifest.label)/\(Labels.assertionStore)/\(box.label ?? "")"
                guard let bytes = box.content("cbor"), let map = try? CBORDecoder.decode(bytes), let pairs = map.mapPairs else {
                    log.add(.failure, StatusCode.assertionTimeStampMalformed, "could not parse timestamp assertion", url: url)
                    continue
                }
                for pair in pairs {
                    // The token's own statuses stay out of the report, as c2pa-rs keeps them; one line says it gave no time.
                    var tokenLog = StatusLog()
                    guard let label = pair.key.textValue, let token = pair.value.bytesValue,
                          let cose = store.manifest(labeled: label)?.signatureBox?.content("cbor").flatMap({ try? COSESign1(encoded: $0) }),
                          let trusted = TimeStampCheck(trust: trust).trustedTime(token: token, over: cose.signature, url: url, log: &tokenLog)
                    else {
                        let why = tokenLog.statuses.last { $0.kind == .informational }?.explanation ?? "it names no manifest of this store"
                        log.add(.informational, StatusCode.timeStampMismatch,
                                "the time-stamp for \(pair.key.textValue ?? "?") gives no time (\(why)); its imprint must be over that manifest's COSE_Sign1 signature",
                                url: url)
                        continue
                    }
                    times[label] = trusted
                }
            }
        }
        return times
    }
}
