import FoundationEssentials
import LensCrypto

/// `c2pa.time-stamp` assertions (C2PA 2.2 §18.18), read as c2pa-rs 0.91 reads them: those of
/// every manifest in the store, each token checked against the claim signature of the manifest
/// it names (imprint over the COSE_Sign1 bytes as stored, CMS signature, TSA trusted at genTime).
/// A manifest so time-stamped has its signing certificate's validity judged at that time. A token
/// that does not check out only gives no time (c2pa-rs 0.91.3 reports nothing for it, though its
/// later source logs `assertion.timestamp.malformed`); an assertion that does not parse is that failure.
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
                    // The token's own statuses stay out of the report, as c2pa-rs keeps them.
                    var tokenLog = StatusLog()
                    guard let label = pair.key.textValue, let token = pair.value.bytesValue,
                          let signature = store.manifest(labeled: label)?.signatureBox?.content("cbor"),
                          let trusted = TimeStampCheck(trust: trust).trustedTime(token: token, over: signature, url: url, log: &tokenLog)
                    else { continue }
                    times[label] = trusted
                }
            }
        }
        return times
    }
}
