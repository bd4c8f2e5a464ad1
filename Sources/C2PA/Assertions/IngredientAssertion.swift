/// `c2pa.ingredient` (v1, v2, v3), read side: what the ingredient is and which manifest in the
/// store describes it. v3 names it `activeManifest` (and `claimSignature`); v1/v2 `c2pa_manifest`.
public struct IngredientAssertion: Sendable {
    public var title: String?
    public var relationship: String?
    public var manifest: HashedURI?
    /// The status codes (code, url) the writer recorded when it validated the ingredient; a
    /// reader reports only what differs from them.
    public var recordedStatuses: [RecordedStatus]

    public struct RecordedStatus: Hashable, Sendable {
        public var code: String
        public var url: String?
    }

    public init(cbor: CBOR) throws {
        guard cbor.mapPairs != nil else { throw C2PAError.malformed("c2pa.ingredient is not a map") }
        title = cbor["dc:title"]?.textValue
        relationship = cbor["relationship"]?.textValue
        if let reference = cbor["activeManifest"] ?? cbor["c2pa_manifest"] {
            guard let hashed = HashedURI(cbor: reference) else {
                throw C2PAError.malformed("c2pa.ingredient manifest reference is not a hashed URI")
            }
            manifest = hashed
        }
        recordedStatuses = Self.statuses(in: cbor["validationResults"]) + Self.list(cbor["validationStatus"])
    }

    /// Every status in a validation-results map: the active manifest's and each ingredient delta's.
    private static func statuses(in results: CBOR?) -> [RecordedStatus] {
        guard let results else { return [] }
        let buckets = ["success", "informational", "failure"]
        let active = buckets.flatMap { list(results["activeManifest"]?[$0]) }
        let deltas = (results["ingredientDeltas"]?.arrayValue ?? []).flatMap { delta in
            buckets.flatMap { list(delta["validationDeltas"]?[$0]) }
        }
        return active + deltas
    }

    private static func list(_ items: CBOR?) -> [RecordedStatus] {
        (items?.arrayValue ?? []).compactMap { item in
            item["code"]?.textValue.map { RecordedStatus(code: $0, url: item["url"]?.textValue) }
        }
    }
}
