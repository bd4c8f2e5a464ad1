import FoundationEssentials
import LensCrypto

/// The manifest-store JSON as c2pa-rs's Reader prints it (what `c2patool FILE` shows and
/// c2pa-python's `Reader.json()` returns): `active_manifest`, `manifests` by label — each with its
/// claim generator, title, instance ID, thumbnail, ingredients, assertions (hard bindings,
/// ingredients and thumbnails shown in their own places), signature_info, claim_version — then
/// `validation_status`, `validation_results` and `validation_state`. A manifest c2pa-rs cannot
/// load is left out, as it leaves it out. Byte strings are written in base64.
public enum ManifestStoreJSON {
    public static let specVersion = "2.4.0"

    /// nil when the report has no manifest store.
    public static func document(_ report: VerificationReport) -> JSONValue? {
        guard let store = report.store else { return nil }
        let unloaded = Set(report.manifests.filter { !$0.loads }.map(\.label))
        var manifests: [String: JSONValue] = [:]
        for manifest in store.manifests where !unloaded.contains(manifest.label) {
            manifests[manifest.label] = Self.manifest(manifest, signer: report.manifests.first { $0.label == manifest.label }?.signer)
        }
        var results = ["activeManifest": JSONValue.object(ReportJSON.statusCodes(report.statuses)),
                       "specVersion": .string(specVersion)]
        if !report.ingredientDeltas.isEmpty { results["ingredientDeltas"] = ReportJSON.deltas(report) }
        if report.statuses.contains(where: { $0.code == StatusCode.signingCredentialTrusted }) {
            results["trustListUri"] = .string("system_anchors")
        }
        var document: [String: JSONValue] = ["manifests": .object(manifests), "validation_results": .object(results),
                                             "validation_state": .string(report.state.rawValue)]
        if let active = store.activeManifest?.label { document["active_manifest"] = .string(active) }
        let failures = report.failures + report.ingredientFailures
        if !failures.isEmpty { document["validation_status"] = .array(failures.map(ReportJSON.status)) }
        return .object(document)
    }

    static func bytes(_ bytes: [UInt8]) -> JSONValue { .string(Data(bytes).base64EncodedString()) }

    private static func manifest(_ manifest: Manifest, signer: SignerSummary?) -> JSONValue {
        var object: [String: JSONValue] = ["label": .string(manifest.label)]
        guard let claim = try? manifest.claim(), let cbor = try? CBORDecoder.decode(claim.bytes) else { return .object(object) }
        object["claim_version"] = .number(Double(claim.version))
        let info = cbor["claim_generator_info"]?.json(bytes: bytes)
        if case .array? = info { object["claim_generator_info"] = info } else if let info { object["claim_generator_info"] = .array([info]) }
        object["title"] = cbor["dc:title"]?.json(bytes: bytes)
        object["instance_id"] = cbor["instanceID"]?.json(bytes: bytes)
        if claim.version == 1 {
            object["claim_generator"] = cbor["claim_generator"]?.json(bytes: bytes)
            object["format"] = cbor["dc:format"]?.json(bytes: bytes)
        }
        let created = Set(claim.bindingCandidates.compactMap { $0.assertionTarget?.label })
        var assertions: [JSONValue] = []
        var ingredients: [JSONValue] = []
        for reference in claim.assertionReferences {
            guard let label = reference.assertionTarget?.label, let box = manifest.assertion(labeled: label) else { continue }
            let parts = label.split(separator: "__", maxSplits: 1).map(String.init)
            switch Labels.base(label) {
            case Labels.dataHash, Labels.boxesHash:
                continue
            case Labels.bmffHash where !label.hasPrefix(Labels.bmffHash + ".v"):
                // c2pa-rs hides the bindings by their exact labels: a .v2/.v3 BMFF hash it shows.
                continue
            case Labels.ingredient:
                if let ingredient = ReportJSON.content(box, bytes: bytes) { ingredients.append(Self.ingredient(ingredient, label: label, manifest: manifest.label)) }
            case _ where label.hasPrefix("c2pa.thumbnail.claim"):
                object["thumbnail"] = .object(["format": .string(ReportJSON.mediaType(box)),
                                               "identifier": .string(ReportJSON.absoluteURI(manifest.label, label))])
            case _ where label.hasPrefix("c2pa.thumbnail.ingredient"):
                continue
            default:
                guard let data = ReportJSON.content(box, bytes: bytes) else { continue }
                var assertion: [String: JSONValue] = ["label": .string(Labels.base(label) == "c2pa.actions" ? "c2pa.actions.v2" : parts[0]),
                                                      "data": data]
                if box.content("json") != nil || label.hasSuffix(".metadata") { assertion["kind"] = .string("Json") }
                if parts.count == 2, let index = Int(parts[1]) { assertion["instance"] = .number(Double(index + 1)) }
                if claim.version >= 2, created.contains(label) { assertion["created"] = .bool(true) }
                assertions.append(.object(assertion))
            }
        }
        if !assertions.isEmpty { object["assertions"] = .array(assertions) }
        if !ingredients.isEmpty { object["ingredients"] = .array(ingredients) }
        object["signature_info"] = signatureInfo(SignatureFacts(manifest), signer: signer)
        return .object(object)
    }

    /// c2pa-rs's Ingredient: the assertion's fields under its names, the manifest by label.
    private static func ingredient(_ assertion: JSONValue, label: String, manifest: String) -> JSONValue {
        var object: [String: JSONValue] = ["label": .string(label)]
        let renamed = ["dc:title": "title", "dc:format": "format", "instanceID": "instance_id", "documentID": "document_id",
                       "relationship": "relationship", "validationResults": "validation_results"]
        for (from, to) in renamed { object[to] = assertion[from] }
        if let url = (assertion["activeManifest"] ?? assertion["c2pa_manifest"])?["url"]?.stringValue,
           let target = JUMBFURI(url)?.manifest {
            object["active_manifest"] = .string(target)
            object["manifest_data"] = .object(["format": .string("application/c2pa"), "identifier": .string(target)])
        }
        if let url = assertion["thumbnail"]?["url"]?.stringValue, let uri = JUMBFURI(url), let thumbnail = uri.assertionLabel {
            object["thumbnail"] = .object(["format": .string(thumbnail.hasSuffix(".png") ? "image/png" : "image/jpeg"),
                                           "identifier": .string(ReportJSON.absoluteURI(uri.manifest ?? manifest, thumbnail))])
        }
        return .object(object)
    }

    private static func signatureInfo(_ facts: SignatureFacts, signer: SignerSummary?) -> JSONValue? {
        guard let leaf = facts.leaf else { return nil }
        var object: [String: JSONValue] = ["cert_serial_number": .string(SignatureFacts.decimal(leaf.serialNumber))]
        if let algorithm = facts.algorithm { object["alg"] = .string(algorithm.rawValue.prefix(1).uppercased() + algorithm.rawValue.dropFirst()) }
        if let organization = leaf.subject.organization { object["issuer"] = .string(organization) }
        if let name = leaf.subject.commonName { object["common_name"] = .string(name) }
        if let time = signer?.timeStamp ?? facts.timeStamp?.time { object["time"] = .string(ReportJSON.time(time)) }
        return .object(object)
    }
}
