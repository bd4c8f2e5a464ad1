import FoundationEssentials
import LensCrypto

/// Validates one manifest: its claim, signature, signing credential (at the time-stamp's time
/// when a trusted one is present), every hashed URI, and — given the asset — its hard binding.
struct ManifestCheck {
    let trust: TrustPolicy
    let now: Date
    /// Manifest label → the time a `c2pa.time-stamp` assertion gives its signature.
    var assertedTimes: [String: TimeStampCheck.TrustedTime] = [:]
    /// The store the manifests come from (c2pa.redacted actions name assertions in it).
    var store: ManifestStore?

    struct Result {
        var manifest: ManifestSummary
        var metadata: JSONValue?
        /// The manifest's ingredient assertions that read, with their absolute URIs.
        var ingredients: [(url: String, assertion: IngredientAssertion)] = []
        /// An assertion c2pa-rs cannot decode: it stops loading the manifest there
        /// (`assertion.required.missing`), and checks no assertion after it.
        var failsToLoad = false
    }

    /// `asset`: check the manifest's hard binding against it (the active manifest's, unless an update).
    func check(_ manifest: Manifest, asset: (any BoundAsset)?, log: inout StatusLog) -> Result {
        var result = Result(manifest: ManifestSummary(label: manifest.label, isUpdate: manifest.isUpdate))
        let claim: Claim
        do {
            claim = try manifest.claim()
        } catch {
            log.add(.failure, StatusCode.claimMalformed, "the claim is missing or unreadable: \(error)")
            return result
        }
        result.manifest.claimVersion = claim.version
        result.manifest.claimGenerator = [claim.generatorName, claim.generatorVersion].compactMap { $0 }.joined(separator: " ")
        result.manifest.title = claim.title
        result.manifest.assertions = claim.assertionReferences.compactMap { $0.assertionTarget?.label }
        let url = "self#jumbf=/c2pa/\(manifest.label)/c2pa.signature"
        if let cose = manifest.signatureBox?.content("cbor") {
            result.manifest.signer = SignatureCheck(trust: trust, now: now,
                                                      assertedTime: assertedTimes[manifest.label]).check(cose: cose, payload: claim.bytes, url: url, log: &log)
        } else {
            log.add(.failure, StatusCode.claimSignatureMissing, "claim signature is missing", url: url)
        }
        verifyAssertions(manifest: manifest, claim: claim, result: &result, log: &log)
        ActionsCheck(manifest: manifest, claim: claim, store: store).check(log: &log)
        if let asset { verifyBinding(manifest: manifest, claim: claim, asset: asset, amendedByUpdate: false, log: &log) }
        return result
    }

    // MARK: Assertions and hard binding

    /// The hard binding of an update manifest's parent, which covers the asset the update amends;
    /// nothing when the parent's claim does not read (its own check reports that).
    func checkBinding(ofUpdated manifest: Manifest, asset: any BoundAsset, log: inout StatusLog) {
        guard let claim = try? manifest.claim() else { return }
        verifyBinding(manifest: manifest, claim: claim, asset: asset, amendedByUpdate: true, log: &log)
    }

    private func verifyAssertions(manifest: Manifest, claim: Claim, result: inout Result, log: inout StatusLog) {
        for reference in claim.assertionReferences {
            let url = reference.url
            guard let target = reference.assertionTarget,
                  target.manifest == nil || target.manifest == manifest.label,
                  let box = manifest.assertion(labeled: target.label) else {
                log.add(.failure, StatusCode.assertionMissing, "assertion missing: \(url)", url: url)
                continue
            }
            let absolute = "self#jumbf=/c2pa/\(manifest.label)/c2pa.assertions/\(target.label)"
            guard let algorithm = DigestAlgorithm(rawValue: reference.algorithm ?? claim.algorithmName) else {
                log.add(.failure, StatusCode.algorithmUnsupported, "hash algorithm is not supported", url: absolute)
                continue
            }
            let intact = Digest.hash(box.payload, algorithm: algorithm) == reference.hash
            if intact {
                log.add(.success, StatusCode.hashedURIMatch, "hashed uri matched: \(url)", url: absolute)
            } else {
                log.add(.failure, StatusCode.hashedURIMismatch, "hash does not match assertion data: \(url)", url: absolute)
            }
            read(box, label: target.label, url: absolute, intact: intact, claim: claim, result: &result, log: &log)
        }
        if result.failsToLoad {
            result.manifest.loads = false
            log.add(.failure, StatusCode.assertionRequiredMissing, "Failed to load manifest", url: "self#jumbf=/c2pa/\(manifest.label)")
        }
    }

    private func verifyBinding(manifest: Manifest, claim: Claim, asset: any BoundAsset, amendedByUpdate: Bool, log: inout StatusLog) {
        let bindings = claim.bindingCandidates.compactMap { reference -> (String, JUMBFSuperbox)? in
            guard let label = reference.assertionTarget?.label, HardBindingCheck.isHardBinding(label),
                  let box = manifest.assertion(labeled: label) else { return nil }
            return ("self#jumbf=/c2pa/\(manifest.label)/c2pa.assertions/\(label)", box)
        }
        if bindings.isEmpty {
            log.add(.failure, StatusCode.hardBindingsMissing, "claim missing data binding",
                    url: "self#jumbf=/c2pa/\(manifest.label)")
        } else if bindings.count > 1 {
            log.add(.failure, StatusCode.hardBindingsMultiple, "claim has multiple data bindings",
                    url: "self#jumbf=/c2pa/\(manifest.label)")
        }
        let binding = HardBindingCheck(claimAlgorithm: claim.algorithm ?? .sha256, asset: asset, amendedByUpdate: amendedByUpdate)
        for (url, box) in bindings { binding.verify(box, url: url, log: &log) }
    }

    /// Keeps what the report shows: actions and capture metadata only from intact assertions (a
    /// changed one says nothing to rely on); ingredients and identities even from a changed one,
    /// since c2pa-rs still checks them.
    private func read(_ box: JUMBFSuperbox, label: String, url: String, intact: Bool, claim: Claim, result: inout Result,
                      log: inout StatusLog) {
        switch Labels.base(label) {
        case _ where !intact && ![Labels.ingredient, Labels.identity].contains(Labels.base(label)):
            break
        case "c2pa.actions":
            guard let bytes = box.content("cbor"), let cbor = try? CBORDecoder.decode(bytes) else { return }
            result.manifest.actions = (cbor["actions"]?.arrayValue ?? []).compactMap { action in
                guard let name = action["action"]?.textValue else { return nil }
                return ActionSummary(action: name, when: action["when"]?.untagged.textValue,
                                     digitalSourceType: action["digitalSourceType"]?.textValue)
            }
        case Labels.metadata:
            result.metadata = box.content("json").flatMap { try? JSONValue(parsing: $0) }
        case Labels.identity where !result.failsToLoad:
            if let outcome = IdentityCheck(now: now, claimReferences: claim.assertionReferences).check(box, url: url, log: &log) {
                result.manifest.identities.append(outcome.line)
            } else {
                result.failsToLoad = true
            }
        case Labels.ingredient:
            do {
                guard let bytes = box.content("cbor") else { throw C2PAError.malformed("no CBOR content") }
                let ingredient = try IngredientAssertion(cbor: try CBORDecoder.decode(bytes))
                result.ingredients.append((url, ingredient))
                result.manifest.ingredients.append(IngredientSummary(
                    title: ingredient.title, relationship: ingredient.relationship,
                    manifest: ingredient.manifest.flatMap { JUMBFURI($0.url)?.manifest }))
            } catch {
                log.add(.failure, StatusCode.ingredientMalformed, "ingredient assertion could not be parsed: \(error)", url: url)
            }
        default:
            break
        }
    }
}
