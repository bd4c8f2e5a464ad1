/// Time-stamps a manifest signed offline, later (C2PA 2.2 §11.2.3, §18.18): an update manifest
/// whose `c2pa.ingredient.v3` is the parent it amends and whose `c2pa.time-stamp` maps the
/// parent's label to a token over the parent's claim signature; its actions say it opened the
/// parent and changed nothing else. No hard binding, no thumbnail.
/// The update's own signature is time-stamped too (sigTst2), so that it also outlives the
/// device certificate.
public struct TimeStampUpdate: Sendable {
    public var generator: ClaimGeneratorInfo
    public var signer: ClaimSigner
    public var timeStamper: any TimeStamper

    public init(generator: ClaimGeneratorInfo, signer: ClaimSigner, timeStamper: any TimeStamper) {
        self.generator = generator
        self.signer = signer
        self.timeStamper = timeStamper
    }

    /// `existing` with the update appended. `format` is the asset's media type; `validation`
    /// what verifying the parent found (recorded in the ingredient).
    public func update(store existing: [UInt8], format: String, validation: [ValidationStatus]) throws -> [UInt8] {
        let store = try ManifestStore(jumbf: existing)
        guard let parent = store.activeManifest, !parent.isUpdate else {
            throw C2PAError.unsupported("the active manifest is already an update manifest")
        }
        guard let signature = parent.signatureBox?.content("cbor") else {
            throw C2PAError.malformed("the manifest \(parent.label) has no claim signature to time-stamp")
        }
        // The imprint is over the COSE_Sign1's `signature` field, as c2pa-rs stamps (TimeStamp::refresh_timestamp)
        // and reads it: a token over the whole COSE_Sign1 is ignored there.
        guard let token = try timeStamper.timeStamp(try COSESign1(encoded: signature).signature) else {
            throw C2PAError.signing("no time-stamp token for \(parent.label)")
        }
        let assertions: [any Assertion] = [
            ParentIngredientAssertion(manifest: parent, format: format, validation: validation),
            OpenedActionsAssertion(),
            TimeStampAssertion(tokens: [(parent.label, token)]),
        ]
        let writer = ManifestWriter.update(generator: generator, assertions: assertions, signer: signer, timeStamper: timeStamper)
        return try writer.signedUpdate(after: existing)
    }
}
