import C2PA

/// JUMBFParser.parseSuperbox and ManifestStore(jumbf:) on arbitrary bytes, then what the
/// verifier reads from a store: labels, assertions (CBOR and JSON), the claim and its hashed URIs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let box = try? JUMBFParser.parseSuperbox(bytes) {
        walk(box)
        _ = box.encoded
    }
    guard let store = try? ManifestStore(jumbf: bytes) else { return 0 }
    for manifest in store.manifests {
        _ = store.manifest(labeled: manifest.label)
        for assertion in manifest.assertions {
            _ = manifest.assertion(labeled: assertion.label ?? "")
            if let cbor = assertion.content("cbor"), let item = try? CBORDecoder.decode(cbor) {
                _ = try? DataHashAssertion(cbor: item, claimAlgorithm: .sha256)
            }
            if let json = assertion.content("json") { _ = try? JSONValue(parsing: json) }  // as for c2pa.metadata
        }
        if let claim = try? manifest.claim() {
            _ = (claim.instanceID, claim.generatorName, claim.generatorVersion, claim.signatureURL, claim.title)
            for reference in claim.assertionReferences { _ = manifest.assertion(labeled: reference.url) }
        }
        if let cose = manifest.signatureBox?.content("cbor") { _ = try? COSESign1(encoded: cose) }
    }
    return 0
}

private func walk(_ box: JUMBFSuperbox) {
    _ = (box.label, box.description.id, box.description.salt, box.content("cbor"), box.child(labeled: "c2pa"))
    for child in box.superboxes { walk(child) }
}
