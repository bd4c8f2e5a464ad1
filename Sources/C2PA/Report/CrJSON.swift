import FoundationEssentials
import LensCrypto

/// The C2PA JSON report format (crJSON) that the Conformance Program's validators produce and its
/// rubrics evaluate, as c2pa-rs 0.91's `Reader::crjson` writes it: every manifest (the active one
/// first, then the others newest first) with its assertions, its claim, its signature and the
/// validation results that concern it. Byte strings are written `b64'…'`.
public enum CrJSON {
    public static let specVersion = "2.3.0"

    /// nil when the report has no manifest store.
    public static func document(_ report: VerificationReport, generator: String, version: String,
                                validationTime: Date = Date()) -> JSONValue? {
        guard let store = report.store else { return nil }
        let active = store.activeManifest?.label
        // The active manifest's results are all of its validation (an update's includes its
        // parent's binding); each other manifest has what the ingredient deltas say of it.
        var byManifest = Dictionary(grouping: report.ingredientDeltas.flatMap(\.statuses)) { ReportJSON.manifestLabel(of: $0.url) ?? "" }
        byManifest[active ?? ""] = report.statuses
        let ordered = store.manifests.filter { $0.label == active } + store.manifests.filter { $0.label != active }.reversed()
        let manifests = ordered.map { manifest -> JSONValue in
            var object = Self.manifest(manifest)
            var results = ReportJSON.statusCodes(byManifest[manifest.label] ?? [])
            results["specVersion"] = .string(specVersion)
            results["validationTime"] = .string(ReportJSON.time(validationTime))
            object["validationResults"] = .object(results)
            if manifest.label == active, !report.ingredientDeltas.isEmpty { object["ingredientDeltas"] = ReportJSON.deltas(report) }
            return .object(object)
        }
        return .object([
            "@context": .object(["@vocab": .string("https://c2pa.org/crjson"), "extras": .string("https://c2pa.org/crjson/extras")]),
            "manifests": .array(manifests),
            "jsonGenerator": .object(["name": .string(generator), "version": .string(version)]),
        ])
    }

    static func bytes(_ bytes: [UInt8]) -> JSONValue { .string("b64'\(Data(bytes).base64EncodedString())'") }

    private static func manifest(_ manifest: Manifest) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["label": .string(manifest.label), "isUpdateManifest": .bool(manifest.isUpdate),
                                           "isCompressedManifest": .bool(false)]
        let claim = try? manifest.claim()
        var assertions: [String: JSONValue] = [:]
        for reference in claim?.assertionReferences ?? [] {
            guard let label = reference.assertionTarget?.label, let box = manifest.assertion(labeled: label) else { continue }
            if Labels.base(label) == Labels.bmffHash, let cbor = box.content("cbor").flatMap({ try? CBORDecoder.decode($0) }) {
                assertions[label] = Self.bmffHash(cbor).json(bytes: bytes)
                continue
            }
            assertions[label] = ReportJSON.content(box, bytes: bytes) ?? .object([
                "format": .string(ReportJSON.mediaType(box)),
                "identifier": .string(ReportJSON.absoluteURI(manifest.label, label)),
                "hash": bytes(reference.hash),
            ])
        }
        object["assertions"] = .object(assertions)
        if let claim, let cbor = try? CBORDecoder.decode(claim.bytes) {
            object[claim.version == 1 ? "claim" : "claim.v2"] = Self.claim(cbor, version: claim.version, label: manifest.label)
        }
        object["signature"] = signature(SignatureFacts(manifest))
        return object
    }

    /// c2pa-rs writes a BMFF exclusion's data values as lists of byte values, not byte strings.
    private static func bmffHash(_ cbor: CBOR) -> CBOR {
        func listing(_ item: CBOR, under keys: ArraySlice<String>) -> CBOR {
            guard let key = keys.first else { return item.bytesValue.map { .array($0.map { .unsigned(UInt64($0)) }) } ?? item }
            switch item {
            case .map(let pairs):
                return .map(pairs.map { $0.key.textValue == key ? CBOR.Pair($0.key, listing($0.value, under: keys.dropFirst())) : $0 })
            case .array(let items): return .array(items.map { listing($0, under: keys) })
            default: return item
            }
        }
        return listing(cbor, under: ["exclusions", "data", "value"])
    }

    /// The claim's fields in crJSON's shape: the signature's URI absolute, hashed URIs in `b64'…'`.
    private static func claim(_ cbor: CBOR, version: Int, label: String) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for key in ["instanceID", "claim_generator_info", "alg", "alg_soft", "dc:title", "metadata"] {
            if let value = cbor[key] { object[key] = value.json(bytes: bytes) }
        }
        object["signature"] = .string("self#jumbf=/c2pa/\(label)/c2pa.signature")
        let redactions = cbor["redacted_assertions"]?.json(bytes: bytes)
        if version == 1 {
            object["claim_generator"] = cbor["claim_generator"]?.json(bytes: bytes)
            object["dc:format"] = .string(cbor["dc:format"]?.textValue ?? "")
            // c2pa-rs gives a v1 claim's assertion URIs in absolute form.
            object["assertions"] = .array((cbor["assertions"]?.arrayValue ?? []).map { item in
                guard case .object(var reference) = item.json(bytes: bytes), let url = item["url"]?.textValue else { return item.json(bytes: bytes) }
                reference["url"] = .string(JUMBFURI(url)?.assertionLabel.map { ReportJSON.absoluteURI(label, $0) } ?? url)
                return .object(reference)
            })
            if case .array(let list)? = redactions, !list.isEmpty { object["redacted_assertions"] = redactions }
        } else {
            object["redacted_assertions"] = redactions ?? .array([])
            object["created_assertions"] = cbor["created_assertions"]?.json(bytes: bytes) ?? .array([])
            object["gathered_assertions"] = cbor["gathered_assertions"]?.json(bytes: bytes) ?? .array([])
        }
        return .object(object)
    }

    private static func signature(_ facts: SignatureFacts) -> JSONValue {
        var object: [String: JSONValue] = [:]
        if let algorithm = facts.algorithm { object["algorithm"] = .string(algorithm.rawValue) }
        if let leaf = facts.leaf { object["certificateInfo"] = SignatureFacts.certificateInfo(leaf) }
        if let stamp = facts.timeStamp {
            var info: [String: JSONValue] = ["timestamp": .string(ReportJSON.time(stamp.time))]
            if let authority = stamp.authority { info["certificateInfo"] = SignatureFacts.certificateInfo(authority) }
            object["timeStampInfo"] = .object(info)
        }
        return .object(object)
    }
}
