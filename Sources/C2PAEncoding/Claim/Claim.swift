import LensCrypto

/// A claim as read from a manifest: v2 (`c2pa.claim.v2`) or v1 (`c2pa.claim`).
public struct Claim: Sendable {
    public let version: Int
    /// The claim bytes exactly as stored; the signature covers them.
    public let bytes: [UInt8]
    public let instanceID: String?
    public let generatorName: String?
    public let generatorVersion: String?
    public let signatureURL: String?
    public let algorithm: DigestAlgorithm?
    public let algorithmName: String
    public let title: String?
    /// created + gathered assertions (v2) or assertions (v1), in claim order.
    public let assertionReferences: [HashedURI]
    /// The references that may carry a hard binding: created assertions (v2; a gathered
    /// binding does not count, as in c2pa-rs) or every assertion (v1).
    public let bindingCandidates: [HashedURI]

    /// The fields each version may have, and those it must have (text unless noted), as c2pa-rs decodes them.
    static let v1Fields: Set<String> = ["claim_generator", "claim_generator_hints", "claim_generator_info", "signature",
                                        "assertions", "dc:format", "instanceID", "dc:title", "redacted_assertions",
                                        "alg", "alg_soft", "metadata"]
    static let v2Fields: Set<String> = ["instanceID", "claim_generator_info", "signature", "created_assertions",
                                        "gathered_assertions", "dc:title", "redacted_assertions", "alg", "alg_soft", "metadata"]

    public init(bytes: [UInt8], version: Int) throws {
        let cbor = try CBORDecoder.decode(bytes)
        guard let pairs = cbor.mapPairs else { throw C2PAError.malformed("the claim is not a CBOR map") }
        let allowed = version >= 2 ? Self.v2Fields : Self.v1Fields
        for pair in pairs {
            guard let key = pair.key.textValue else { throw C2PAError.malformed("non-text key in a v\(version) claim") }
            guard allowed.contains(key) else { throw C2PAError.malformed("unknown v\(version) claim field: \(key)") }
        }
        let required = version >= 2 ? ["instanceID", "signature"] : ["claim_generator", "signature", "dc:format", "instanceID"]
        for key in required where cbor[key]?.textValue == nil {
            throw C2PAError.malformed("claim \(key) is missing or invalid")
        }
        if version >= 2, cbor["claim_generator_info"]?.mapPairs == nil {
            throw C2PAError.malformed("claim claim_generator_info is missing or invalid")
        }
        if cbor[version >= 2 ? "created_assertions" : "assertions"]?.arrayValue == nil {
            throw C2PAError.malformed("claim assertion list is missing or invalid")
        }
        self.bytes = bytes
        self.version = version
        instanceID = cbor["instanceID"]?.textValue
        signatureURL = cbor["signature"]?.textValue
        title = cbor["dc:title"]?.textValue
        algorithmName = cbor["alg"]?.textValue ?? "sha256"
        algorithm = DigestAlgorithm(rawValue: algorithmName)
        // v2 has one generator map; v1 has a claim_generator string and an array of maps.
        let info = cbor["claim_generator_info"].flatMap { $0.arrayValue?.first ?? $0 }
        generatorName = info?["name"]?.textValue ?? cbor["claim_generator"]?.textValue
        generatorVersion = info?["version"]?.textValue
        func references(_ list: String) throws -> [HashedURI] {
            try (cbor[list]?.arrayValue ?? []).map { item in
                guard let reference = HashedURI(cbor: item) else {
                    throw C2PAError.malformed("claim \(list) entry is not a hashed URI")
                }
                return reference
            }
        }
        if version >= 2 {
            bindingCandidates = try references("created_assertions")
            assertionReferences = bindingCandidates + (try references("gathered_assertions"))
        } else {
            assertionReferences = try references("assertions")
            bindingCandidates = assertionReferences
        }
    }

    /// Builds the CBOR of a v2 claim.
    package static func encodeV2(instanceID: String, generator: ClaimGeneratorInfo, signatureURL: String,
                         createdAssertions: [HashedURI], algorithm: DigestAlgorithm) -> [UInt8] {
        CBOR.textMap([
            ("instanceID", .text(instanceID)),
            ("claim_generator_info", generator.cbor),
            ("signature", .text(signatureURL)),
            ("created_assertions", .array(createdAssertions.map(\.cbor))),
            ("alg", .text(algorithm.rawValue)),
        ]).encoded()
    }
}
