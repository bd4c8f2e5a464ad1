import LensCrypto

/// Checks a hard-binding assertion against the asset: `c2pa.hash.data` on a JPEG,
/// `c2pa.hash.bmff` (plain v1, .v2, .v3) on ISO-BMFF.
struct HardBindingCheck {
    let claimAlgorithm: DigestAlgorithm
    let asset: any BoundAsset
    /// An update manifest was added after this binding was made: the store grew past its exclusion.
    var amendedByUpdate = false

    /// Which labels bind the asset, as c2pa-rs 0.91 counts them: plain `c2pa.hash.bmff`, though
    /// spec 2.0 removed it, still binds (in v2 claims too); `c2pa.hash.boxes` counts, though lensd
    /// cannot check it.
    static func isHardBinding(_ label: String) -> Bool {
        [Labels.dataHash, Labels.bmffHash, Labels.boxesHash].contains(Labels.base(label))
    }

    func verify(_ box: JUMBFSuperbox, url: String, log: inout StatusLog) {
        switch Labels.base(box.label ?? "") {
        case Labels.dataHash: verifyDataHash(box, url: url, log: &log)
        case Labels.bmffHash: verifyBMFFHash(box, url: url, log: &log)
        default:
            // Never accepted unchecked: a binding lensd cannot evaluate leaves the asset unbound.
            log.add(.failure, StatusCode.boxesHashMismatch, "lensd does not evaluate c2pa.hash.boxes bindings", url: url)
        }
    }

    private func verifyDataHash(_ box: JUMBFSuperbox, url: String, log: inout StatusLog) {
        var binding: DataHashAssertion
        do {
            guard let cbor = box.content("cbor") else { throw C2PAError.malformed("no CBOR content") }
            binding = try DataHashAssertion(cbor: try CBORDecoder.decode(cbor), claimAlgorithm: claimAlgorithm)
        } catch {
            log.add(.failure, StatusCode.dataHashMalformed, "data hash assertion is malformed: \(error)", url: url)
            return
        }
        if binding.exclusions.count > 1 {
            log.add(.informational, StatusCode.dataHashAdditionalExclusions, "extra data hash exclusions found", url: url)
        }
        if amendedByUpdate { binding.widenStoreExclusion(to: asset.storeRange) }
        let digest: [UInt8]?
        do {
            digest = try asset.dataHash(excluding: binding.exclusions, algorithm: binding.algorithm)
        } catch {
            // A format that has no data hash (an MP4) says so: the asset stays unbound.
            log.add(.failure, StatusCode.dataHashMismatch, "\(error)", url: url)
            return
        }
        // The exclusion must be exactly the store: anything else leaves bytes unsigned or hides a move.
        let excluded = binding.exclusions.map { $0.start..<($0.start + $0.length) }
        if !excluded.contains(asset.storeRange) {
            log.add(.failure, StatusCode.dataHashMismatch,
                    "data hash exclusion does not match the manifest location in the asset", url: url)
        }
        guard let digest else {
            log.add(.failure, StatusCode.dataHashMismatch, "data hash exclusions are out of range", url: url)
            return
        }
        if digest == binding.hash {
            log.add(.success, StatusCode.dataHashMatch, "data hash valid", url: url)
        } else {
            log.add(.failure, StatusCode.dataHashMismatch, "asset hash error, name: jumbf manifest, error: hash verification", url: url)
        }
    }

    /// Like c2pa-rs: an assertion that does not read is malformed; anything that stops the hash
    /// (an exclusion lensd cannot evaluate, a file that ends early) is a mismatch.
    private func verifyBMFFHash(_ box: JUMBFSuperbox, url: String, log: inout StatusLog) {
        let binding: BMFFHashAssertion
        do {
            guard let cbor = box.content("cbor") else { throw C2PAError.malformed("no CBOR content") }
            binding = try BMFFHashAssertion(cbor: try CBORDecoder.decode(cbor), claimAlgorithm: claimAlgorithm)
        } catch C2PAError.unsupported(let what) {
            // Well-formed, but a shape lensd cannot evaluate (merkle trees, a remote hash): unbound, not malformed.
            log.add(.failure, StatusCode.bmffHashMismatch, "asset hash error: lensd does not evaluate \(what)", url: url)
            return
        } catch {
            log.add(.failure, StatusCode.bmffHashMalformed, "bmff hash assertion is malformed: \(error)", url: url)
            return
        }
        let name = binding.name ?? "unnamed"
        // Only the C2PA box must be excluded; c2pa-rs notes any other exclusion (lensd's standard
        // ftyp, free, skip, mfra among them), which leaves those boxes unsigned.
        if binding.exclusions.contains(where: { $0 != BMFFHashAssertion.c2paBoxExclusion }) {
            log.add(.informational, StatusCode.bmffHashAdditionalExclusions, "extra BMFF hash exclusions found", url: url)
        }
        do {
            let digest = try asset.bmffHash(exclusions: binding.exclusions, algorithm: binding.algorithm,
                                            offsets: box.label?.split(separator: "__")[0] != Substring(Labels.bmffHash))
            guard digest == binding.hash else { throw C2PAError.malformed("BMFF file level hash mismatch") }
            log.add(.success, StatusCode.bmffHashMatch, "data hash valid", url: url)
        } catch {
            log.add(.failure, StatusCode.bmffHashMismatch, "asset hash error, name: \(name), error: \(error)", url: url)
        }
    }
}
