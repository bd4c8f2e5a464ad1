/// The rules c2pa-rs 0.91.3 checks on a claim's actions assertions (claim.rs `verify_actions`,
/// as c2pa-python 0.38.1 applies them: ActionRulesVersusReferenceTests): the first action is
/// c2pa.created or c2pa.opened and no other action is; c2pa.created names its digitalSourceType;
/// opened, placed and removed name their ingredient (parentOf, componentOf); transcoded and
/// repackaged name a parentOf one if any; translated names both languages; redacted names an
/// assertion of a manifest in the store. A v1 claim is held to one actions assertion only.
struct ActionsCheck {
    let manifest: Manifest
    let claim: Claim
    /// For c2pa.redacted: the manifests its URI may name.
    let store: ManifestStore?

    private struct ActionsAssertion {
        let label: String
        let url: String
        let created: Bool
        let actions: [CBOR]
    }

    static let created = "c2pa.created", opened = "c2pa.opened", placed = "c2pa.placed", removed = "c2pa.removed"
    static let transcoded = "c2pa.transcoded", repackaged = "c2pa.repackaged", translated = "c2pa.translated"
    static let redacted = "c2pa.redacted"

    func check(log: inout StatusLog) {
        let references = claim.assertionReferences.compactMap { reference -> (label: String, created: Bool)? in
            guard let label = reference.assertionTarget?.label, Labels.base(label) == "c2pa.actions",
                  manifest.assertion(labeled: label) != nil else { return nil }
            return (label, claim.version >= 2 && claim.bindingCandidates.contains { $0.url == reference.url })
        }
        if claim.version < 2 {
            if references.count > 1 {
                log.add(.failure, StatusCode.actionMalformed, "only one action assertion allowed for v1 claims",
                        url: "self#jumbf=/c2pa/\(manifest.label)")
            }
            return
        }
        var all: [ActionsAssertion] = []
        for (label, created) in references {
            let url = "self#jumbf=/c2pa/\(manifest.label)/c2pa.assertions/\(label)"
            // c2pa-rs stops validating the file (an error, not a status) at an actions assertion it cannot read.
            guard let bytes = manifest.assertion(labeled: label)?.content("cbor"), let cbor = try? CBORDecoder.decode(bytes),
                  let actions = cbor["actions"]?.arrayValue, actions.allSatisfy(Self.readable) else {
                log.add(.failure, StatusCode.generalError, "the actions assertion does not parse", url: url)
                return
            }
            guard !actions.isEmpty else {
                log.add(.failure, StatusCode.actionMalformed, "Actions missing action array", url: url)
                log.add(.failure, StatusCode.generalError, "no action array in actions", url: url)
                return
            }
            all.append(ActionsAssertion(label: label, url: url, created: created, actions: actions))
        }
        guard !all.isEmpty else { return }
        // The first created actions assertion, else the first gathered one, if its first action opens the story.
        var first: String?
        for candidate in [all.first(where: \.created), all.first(where: { !$0.created })].compactMap({ $0 })
        where [Self.created, Self.opened].contains(candidate.actions[0]["action"]?.textValue) {
            first = candidate.label
        }
        if first == nil && !manifest.isUpdate {
            log.add(.failure, StatusCode.actionMalformed, "first action must be created or opened",
                    url: "self#jumbf=/c2pa/\(manifest.label)")
        }
        for (index, assertion) in all.enumerated() {
            for (position, action) in assertion.actions.enumerated() {
                check(action, firstAssertion: first, in: assertion, at: (index, position), log: &log)
            }
        }
    }

    /// An action c2pa-rs can read: a map whose action is text and whose parameters, if any, are a map.
    private static func readable(_ action: CBOR) -> Bool {
        guard action.mapPairs != nil, action["action"]?.textValue != nil else { return false }
        return action["parameters"].map { $0.mapPairs != nil || $0 == .null } ?? true
    }

    private func check(_ action: CBOR, firstAssertion: String?, in assertion: ActionsAssertion, at place: (assertion: Int, action: Int),
                       log: inout StatusLog) {
        let name = action["action"]?.textValue ?? ""
        let parameters = action["parameters"].flatMap { $0 == .null ? nil : $0 }
        func fail(_ code: String, _ why: String) { log.add(.failure, code, why, url: assertion.url) }
        if name.isEmpty { fail(StatusCode.actionMalformed, "action must have an action") }
        let opens = [Self.created, Self.opened].contains(name)
        if opens, let firstAssertion, firstAssertion != assertion.label {
            fail(StatusCode.actionMalformed, "only the first actions assertion can hold created or opened")
        }
        if opens, place != (0, 0) { fail(StatusCode.actionMalformed, "created or opened must be the first action") }
        switch name {
        case Self.opened, Self.placed, Self.removed:
            guard let parameters, parameters["ingredient"] != nil || parameters["ingredients"] != nil else {
                return fail(StatusCode.actionIngredientMismatch, "\(name) must name its ingredient(s) in its parameters")
            }
            if parameters["ingredients"]?.arrayValue?.isEmpty == true {
                fail(StatusCode.actionIngredientMismatch, "\(name): the ingredients parameter is an empty array")
            }
            let relationship = name == Self.opened ? "parentOf" : "componentOf"
            if !names(parameters, ingredientWith: relationship) {
                fail(StatusCode.actionIngredientMismatch, "\(name) names no \(relationship) ingredient of this claim")
            }
        case Self.created where action["digitalSourceType"]?.textValue == nil:
            fail(StatusCode.actionMalformed, "c2pa.created action must have a digitalSourceType")
        case Self.translated:
            let languages = [parameters?["sourceLanguage"]?.textValue, parameters?["targetLanguage"]?.textValue]
            if languages.contains(where: { $0?.isEmpty ?? true }) {
                fail(StatusCode.actionMalformed, "c2pa.translated action must have sourceLanguage and targetLanguage parameters")
            }
        case Self.transcoded, Self.repackaged:
            if let parameters, parameters["ingredient"] != nil || parameters["ingredients"] != nil,
               !names(parameters, ingredientWith: "parentOf") {
                fail(StatusCode.actionIngredientMismatch, "\(name) names no parentOf ingredient of this claim")
            }
        case Self.redacted:
            guard let parameters else { return }
            switch redactionIsRecorded(parameters["redacted"]?.textValue) {
            case nil: fail(StatusCode.actionRedactionMismatch, "redaction uri must be a valid reference")
            case false?: fail(StatusCode.assertionNotRedacted, "the assertion was not redacted")
            case true?: break
            }
        default:
            break
        }
    }

    /// Whether the `ingredient` parameter (or, without it, any of `ingredients`) names an
    /// ingredient assertion of this claim with `relationship`.
    private func names(_ parameters: CBOR, ingredientWith relationship: String) -> Bool {
        let uris = parameters["ingredient"].map { [$0] } ?? parameters["ingredients"]?.arrayValue ?? []
        return uris.contains { uri in
            guard let label = uri["url"]?.textValue.flatMap(JUMBFURI.init)?.assertionLabel,
                  Labels.base(label) == Labels.ingredient, claim.assertionReferences.contains(where: { $0.assertionTarget?.label == label }),
                  let bytes = manifest.assertion(labeled: label)?.content("cbor"),
                  let ingredient = try? IngredientAssertion(cbor: try CBORDecoder.decode(bytes)) else { return false }
            return ingredient.relationship == relationship
        }
    }

    /// nil: the URI names no manifest of the store; otherwise whether that manifest's claim lists the assertion.
    private func redactionIsRecorded(_ uri: String?) -> Bool? {
        guard let parsed = uri.flatMap(JUMBFURI.init), let label = parsed.manifest,
              let named = store?.manifest(labeled: label) else { return nil }
        guard let assertion = parsed.assertionLabel, let claim = try? named.claim() else { return false }
        return claim.assertionReferences.contains { $0.url.contains(assertion) }
    }
}
