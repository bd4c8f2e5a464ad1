import LensCrypto

/// `c2pa.ingredient.v3` with relationship `parentOf`, write side: the manifest an update manifest
/// amends, referenced by hashed URIs to the manifest and to its claim signature, with what
/// validating it found when the update was made (readers report only what differs from it).
public struct ParentIngredientAssertion: Assertion {
    public var label: String { Labels.ingredientV3 }
    public var manifest: Manifest
    /// "image/jpeg", "video/mp4".
    public var format: String
    public var validation: [ValidationStatus]

    public init(manifest: Manifest, format: String, validation: [ValidationStatus]) {
        self.manifest = manifest
        self.format = format
        self.validation = validation
    }

    public func content() throws -> AssertionContent {
        guard let signature = manifest.signatureBox else {
            throw C2PAError.malformed("the manifest \(manifest.label) has no claim signature to reference")
        }
        let manifestURL = "self#jumbf=/\(Labels.manifestStore)/\(manifest.label)"
        func statuses(_ kind: ValidationStatus.Kind) -> CBOR {
            .array(validation.filter { $0.kind == kind }.map { status in
                .textMap([("code", .text(status.code))] + (status.url.map { [("url", .text($0))] } ?? [])
                         + [("explanation", .text(status.explanation))])
            })
        }
        return .cbor(.textMap([
            ("relationship", .text("parentOf")),
            ("dc:format", .text(format)),
            ("activeManifest", HashedURI(url: manifestURL, hash: Digest.hash(manifest.payload), algorithm: "sha256").cbor),
            ("claimSignature", HashedURI(url: "\(manifestURL)/\(Labels.signature)", hash: Digest.hash(signature.payload),
                                         algorithm: "sha256").cbor),
            ("validationResults", .textMap([("activeManifest", .textMap([
                ("success", statuses(.success)), ("informational", statuses(.informational)), ("failure", statuses(.failure)),
            ]))])),
        ]))
    }
}
