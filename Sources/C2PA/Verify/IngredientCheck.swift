import LensCrypto

/// Walks the ingredients' manifests from the active one, as c2pa-rs does: each ingredient's
/// hashed manifest reference, its claim and signature, then its own ingredients (each manifest
/// once). What it finds is reported per ingredient assertion, minus what the ingredient's
/// writer already recorded in it (c2pa-rs's "ingredient deltas").
struct IngredientCheck {
    let store: ManifestStore
    let validation: ManifestCheck
    private(set) var manifests: [ManifestSummary] = []
    private var found: [(ingredientURI: String, status: ValidationStatus)] = []
    private var recorded: Set<IngredientAssertion.RecordedStatus> = []
    private var visited: Set<String> = []
    private var tooDeep = false
    /// Each manifest is checked once: many references to one manifest (hostile or not) reuse it.
    private var checked: [String: (statuses: [ValidationStatus], result: ManifestCheck.Result)] = [:]
    private var payloadDigests: [String: [UInt8]] = [:]

    /// c2pa-rs's limit: a deeper chain is refused (and hostile nesting cannot exhaust the stack).
    static let maximumDepth = 200

    init(store: ManifestStore, validation: ManifestCheck) {
        self.store = store
        self.validation = validation
    }

    /// Walks the active manifest's ingredients; a missing ingredient manifest is also reported
    /// with the active manifest's statuses (`log`), as c2pa-rs reports it in both places.
    mutating func walk(from active: ManifestCheck.Result, log: inout StatusLog) {
        visited.insert(active.manifest.label)
        walk(active, depth: 0)
        for status in found.map(\.status) where status.code == StatusCode.ingredientManifestMissing {
            log.statuses.append(status)
        }
        if tooDeep {
            log.add(.failure, StatusCode.generalError, "ingredient chain deeper than \(Self.maximumDepth) manifests")
        }
    }

    private mutating func walk(_ result: ManifestCheck.Result, depth: Int) {
        manifests.append(result.manifest)
        guard depth < Self.maximumDepth else {
            tooDeep = true
            return
        }
        for (url, ingredient) in result.ingredients {
            guard let reference = ingredient.manifest else { continue }
            let label = JUMBFURI(reference.url)?.manifest
            recorded.formUnion(ingredient.recordedStatuses.map { Self.absolute($0, in: label) })
            var log = StatusLog()
            guard let label, let manifest = store.manifest(labeled: label) else {
                log.add(.failure, StatusCode.ingredientManifestMissing, "ingredient not found", url: reference.url)
                note(log, for: url)
                continue
            }
            checkReference(reference, to: manifest, log: &log)
            let result = check(manifest)
            log.statuses += result.statuses
            note(log, for: url)
            if visited.insert(label).inserted { walk(result.result, depth: depth + 1) }
        }
    }

    private mutating func check(_ manifest: Manifest) -> (statuses: [ValidationStatus], result: ManifestCheck.Result) {
        if let done = checked[manifest.label] { return done }
        var log = StatusLog()
        let result = validation.check(manifest, asset: nil, log: &log)
        checked[manifest.label] = (log.statuses, result)
        return (log.statuses, result)
    }

    /// The reference hashes the manifest superbox's payload (C2PA 1.3 and later) or, before
    /// that, the claim; neither matching means the ingredient's manifest changed.
    private mutating func checkReference(_ reference: HashedURI, to manifest: Manifest, log: inout StatusLog) {
        let algorithm = DigestAlgorithm(rawValue: reference.algorithm ?? "sha256") ?? .sha256
        let key = "\(algorithm.rawValue) \(manifest.label)"
        let digest = payloadDigests[key] ?? Digest.hash(manifest.payload, algorithm: algorithm)
        payloadDigests[key] = digest
        if digest == reference.hash {
            log.add(.success, StatusCode.ingredientManifestValidated, "ingredient hash matched", url: reference.url)
        } else if let claim = manifest.claimBox?.content("cbor"), Digest.hash(claim, algorithm: algorithm) == reference.hash {
            return
        } else {
            log.add(.failure, StatusCode.ingredientManifestMismatch, "ingredient hash incorrect", url: reference.url)
        }
    }

    private mutating func note(_ log: StatusLog, for ingredientURI: String) {
        found += log.statuses.map { (ingredientURI, $0) }
    }

    /// One delta per ingredient assertion, in the order first met, without recorded statuses.
    func deltas() -> [IngredientDelta] {
        var deltas: [IngredientDelta] = []
        var index: [String: Int] = [:]
        for (uri, status) in found {
            let key = Self.absolute(IngredientAssertion.RecordedStatus(code: status.code, url: status.url), in: nil)
            if recorded.contains(key) { continue }
            if let at = index[uri] {
                deltas[at].statuses.append(status)
            } else {
                index[uri] = deltas.count
                deltas.append(IngredientDelta(ingredientAssertionURI: uri, statuses: [status]))
            }
        }
        return deltas
    }

    private static func absolute(_ status: IngredientAssertion.RecordedStatus, in manifest: String?) -> IngredientAssertion.RecordedStatus {
        guard let text = status.url, let uri = JUMBFURI(text), let label = uri.manifest ?? manifest else { return status }
        return .init(code: status.code, url: (["self#jumbf=/c2pa", label] + uri.path).joined(separator: "/"))
    }
}
