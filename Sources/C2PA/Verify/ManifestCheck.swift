import Foundation
import LensCrypto

/// Validates one manifest: its claim, signature, signing credential (at the time-stamp's time
/// when a trusted one is present), every hashed URI, and — given the asset — its hard binding.
struct ManifestCheck {
    let anchors: [Certificate]
    let now: Date

    struct Result {
        var manifest: ManifestSummary
        var metadata: JSONValue?
        /// The manifest's ingredient assertions that read, with their absolute URIs.
        var ingredients: [(url: String, assertion: IngredientAssertion)] = []
    }

    /// `asset`: check the manifest's hard binding against it (the active manifest's, unless an update).
    func check(_ manifest: Manifest, asset: Asset?, log: inout StatusLog) -> Result {
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
        result.manifest.signer = verifySignature(manifest: manifest, claim: claim, url: url, log: &log)
        verifyAssertions(manifest: manifest, claim: claim, result: &result, log: &log)
        if let asset { verifyBinding(manifest: manifest, claim: claim, asset: asset, amendedByUpdate: false, log: &log) }
        return result
    }

    // MARK: Signature and credential

    private func verifySignature(manifest: Manifest, claim: Claim, url: String, log: inout StatusLog) -> SignerSummary? {
        guard let coseBytes = manifest.signatureBox?.content("cbor") else {
            log.add(.failure, StatusCode.claimSignatureMissing, "claim signature is missing", url: url)
            return nil
        }
        let cose: COSESign1
        do { cose = try COSESign1(encoded: coseBytes) } catch {
            log.add(.failure, StatusCode.claimSignatureMismatch, "claim signature does not parse: \(error)", url: url)
            return nil
        }
        guard let algorithm = cose.algorithm else {
            log.add(.failure, StatusCode.algorithmUnsupported, "signature algorithm is not supported", url: url)
            return nil
        }
        let chain: [Certificate]
        do {
            chain = try cose.certificateChainDER.map { try Certificate(der: $0) }
        } catch {
            log.add(.failure, StatusCode.signingCredentialInvalid, "certificate does not parse: \(error)", url: url)
            return nil
        }
        guard let leaf = chain.first else {
            log.add(.failure, StatusCode.signingCredentialInvalid, "signature carries no certificate", url: url)
            return nil
        }
        // A trusted time-stamp says when the claim was signed; without one, validity is judged now.
        let stampTime = TimeStampCheck(anchors: anchors).trustedTime(of: cose, claim: claim, url: url, log: &log)
        let signingTime = stampTime ?? now
        // Like c2pa-rs, every check runs even after one fails, so a report lists all that is wrong.
        let summary = SignerSummary(subject: leaf.subject, issuer: leaf.issuer, notBefore: leaf.notBefore,
                                    notAfter: leaf.notAfter, algorithm: algorithm.rawValue, timeStamp: stampTime)
        let keyMatches = algorithm.matches(leaf.publicKey)
        let violation = keyMatches ? CertificateProfile.violation(leaf) : "certificate key does not match \(algorithm.rawValue)"
        if let violation { log.add(.failure, StatusCode.signingCredentialInvalid, violation, url: url) }
        let inside = signingTime >= leaf.notBefore && signingTime <= leaf.notAfter
        let message = COSESign1.toBeSigned(protectedBytes: cose.protectedBytes, payload: claim.bytes)
        if leaf.publicKey.verify(signature: cose.signature, message: message, scheme: algorithm.scheme) {
            log.add(.success, StatusCode.claimSignatureValidated, "claim signature valid", url: url)
            if inside {
                log.add(.success, StatusCode.claimSignatureInsideValidity, "claim signature inside validity", url: url)
            }
        } else {
            log.add(.failure, StatusCode.claimSignatureMismatch, "claim signature is not valid", url: url)
        }
        // A key the algorithm cannot use ends the check (c2pa-rs looks no further); a credential
        // outside the profile, or outside its validity at the signing time, is not trusted.
        if !keyMatches {
            return summary
        } else if violation != nil {
            log.add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: not a valid C2PA signer", url: url)
        } else if !inside {
            log.add(.failure, StatusCode.signingCredentialExpired, "certificate expired or not yet valid at \(signingTime)", url: url)
            log.add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: outside its validity", url: url)
        } else if let reason = ChainVerifier.verify(leaf: leaf, intermediates: Array(chain.dropFirst()),
                                                    anchors: anchors, at: stampTime) {
            log.add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: \(reason)", url: url)
        } else {
            log.add(.success, StatusCode.signingCredentialTrusted, "signing certificate trusted, found in trust list", url: url)
        }
        return summary
    }

    // MARK: Assertions and hard binding

    /// The hard binding of an update manifest's parent, which covers the asset the update amends;
    /// nothing when the parent's claim does not read (its own check reports that).
    func checkBinding(ofUpdated manifest: Manifest, asset: Asset, log: inout StatusLog) {
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
            if Digest.hash(box.payload, algorithm: algorithm) == reference.hash {
                log.add(.success, StatusCode.hashedURIMatch, "hashed uri matched: \(url)", url: absolute)
            } else {
                log.add(.failure, StatusCode.hashedURIMismatch, "hash does not match assertion data: \(url)", url: absolute)
            }
            // Read even when changed: the report shows what it says, and c2pa-rs still walks its ingredients.
            read(box, label: target.label, url: absolute, result: &result, log: &log)
        }
    }

    private func verifyBinding(manifest: Manifest, claim: Claim, asset: Asset, amendedByUpdate: Bool, log: inout StatusLog) {
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

    /// Keeps what the report shows: actions, capture metadata and ingredients.
    private func read(_ box: JUMBFSuperbox, label: String, url: String, result: inout Result, log: inout StatusLog) {
        switch Labels.base(label) {
        case "c2pa.actions":
            guard let bytes = box.content("cbor"), let cbor = try? CBORDecoder.decode(bytes) else { return }
            result.manifest.actions = (cbor["actions"]?.arrayValue ?? []).compactMap { action in
                guard let name = action["action"]?.textValue else { return nil }
                return ActionSummary(action: name, when: action["when"]?.untagged.textValue,
                                     digitalSourceType: action["digitalSourceType"]?.textValue)
            }
        case Labels.metadata:
            result.metadata = box.content("json").flatMap { try? JSONValue(parsing: $0) }
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
