import FoundationEssentials
import LensCrypto

/// Statuses as a check finds them, in order.
struct StatusLog {
    var statuses: [ValidationStatus] = []

    mutating func add(_ kind: ValidationStatus.Kind, _ code: String, _ explanation: String, url: String? = nil) {
        statuses.append(ValidationStatus(kind, code, explanation, url: url))
    }
}

/// One verification run over a manifest store: the active manifest against the asset, then
/// every ingredient's manifest, as c2pa-rs walks them.
struct Check {
    var log = StatusLog()
    var summary = VerificationReport(state: .invalid, statuses: [], actions: [])

    mutating func add(_ kind: ValidationStatus.Kind, _ code: String, _ explanation: String, url: String? = nil) {
        log.add(kind, code, explanation, url: url)
    }

    func report() -> VerificationReport {
        var report = summary
        report.statuses = log.statuses
        report.state = ValidationState(statuses: log.statuses, ingredientFailures: report.ingredientFailures)
        return report
    }

    mutating func parse(_ bytes: [UInt8]) -> ManifestStore? {
        do {
            return try ManifestStore(jumbf: bytes)
        } catch {
            add(.failure, StatusCode.generalError, "the manifest store does not parse: \(error)")
            return nil
        }
    }

    mutating func verify(store: ManifestStore, asset: any BoundAsset, trust: TrustPolicy, now: Date) {
        guard let active = store.activeManifest else { return }
        let assertedTimes = TimeStampAssertionCheck(trust: trust).times(in: store, log: &log)
        let validation = ManifestCheck(trust: trust, now: now, assertedTimes: assertedTimes, store: store)
        // An update manifest binds nothing itself: its parent's hard binding covers the asset, and
        // c2pa-rs reports that check with the active manifest's.
        let activeSummary = validation.check(active, asset: active.isUpdate ? nil : asset, log: &log)
        if active.isUpdate {
            let parent = activeSummary.ingredients.first { $0.assertion.relationship == "parentOf" }?.assertion.manifest
            if let label = parent.flatMap({ JUMBFURI($0.url)?.manifest }), let bound = store.manifest(labeled: label) {
                validation.checkBinding(ofUpdated: bound, asset: asset, log: &log)
            } else {
                add(.failure, StatusCode.hardBindingsMissing, "update manifest has no parent ingredient to bind the asset")
            }
        }
        summary.manifestLabel = active.label
        summary.claimVersion = activeSummary.manifest.claimVersion
        summary.claimGenerator = activeSummary.manifest.claimGenerator
        summary.signer = activeSummary.manifest.signer
        summary.actions = activeSummary.manifest.actions
        summary.metadata = activeSummary.metadata
        var ingredients = IngredientCheck(store: store, validation: validation)
        ingredients.walk(from: activeSummary, log: &log)
        summary.manifests = ingredients.manifests
        summary.ingredientDeltas = ingredients.deltas()
    }
}
