#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LensCrypto

/// Verifies the active manifest of an asset: signature, signing credential, trust, every hashed
/// URI and the hard binding, with the spec's status codes.
public struct Verifier: Sendable {
    public var trustAnchors: [Certificate]
    public var now: Date

    public init(trustAnchors: [Certificate] = [], now: Date = Date()) {
        self.trustAnchors = trustAnchors
        self.now = now
    }

    /// Throws `C2PAError.noManifest` when the JPEG has no store and `.unsupported`/`.malformed`
    /// when it is not a readable JPEG; a damaged manifest is an Invalid report, not an error.
    public func verify(jpeg: [UInt8]) throws -> VerificationReport {
        var check = Check()
        let found: (store: [UInt8], location: Range<Int>)
        do {
            guard let store = try jpeg.withUnsafeBytes({ raw in
                try JPEGXT.manifestStore(in: raw, segments: try JPEGSegment.scanHeader(raw).segments)
            }) else { throw C2PAError.noManifest }
            found = store
        } catch C2PAError.malformed(let why) {
            check.add(.failure, StatusCode.generalError, "the manifest store cannot be read: \(why)")
            return check.report()
        }
        guard let store = check.parse(found.store) else { return check.report() }
        check.verify(store: store, asset: .jpeg(bytes: jpeg, storeLocation: found.location), anchors: trustAnchors, now: now)
        return check.report()
    }

    /// Verifies an MP4 (any ISO-BMFF file) from its root boxes; media data is streamed through the
    /// hash, never loaded whole. Throws `noManifest` without a C2PA uuid box, `unsupported` when the
    /// file does not start with ftyp or cannot be opened; a broken box structure is an Invalid report.
    public func verify(mp4Path path: String) throws -> VerificationReport {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        guard try file.size >= 8, try file.read(count: 4, at: 4) == Array("ftyp".utf8) else {
            throw C2PAError.unsupported("\(path) is not an MP4 (no ftyp box first)")
        }
        var check = Check()
        let boxes: [BMFFBox], store: [UInt8]
        do {
            boxes = try BMFFScanner.rootBoxes(of: file)
            let stores = try boxes.filter(\.isC2PA).compactMap { box in
                try ContentProvenanceBox.manifestStore(payload: try file.read(count: box.size - box.headerSize, at: box.payload.lowerBound))
            }
            guard let first = stores.first else { throw C2PAError.noManifest }
            guard stores.count == 1 else { throw C2PAError.malformed("\(stores.count) C2PA manifest boxes") }
            store = first
        } catch C2PAError.malformed(let why) {
            check.add(.failure, StatusCode.generalError, "the manifest store cannot be read: \(why)")
            return check.report()
        }
        guard let parsed = check.parse(store) else { return check.report() }
        check.verify(store: parsed, asset: .bmff(path: path, boxes: boxes), anchors: trustAnchors, now: now)
        return check.report()
    }

    /// Verifies a JPEG or an MP4, told apart by their first bytes (SOI, or ftyp at offset 4).
    public func verify(fileAt path: String) throws -> VerificationReport {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        var head = [UInt8](repeating: 0, count: 8)
        let n = try head.withUnsafeMutableBytes { try file.read(into: $0) }
        if n >= 2, head[0] == 0xFF, head[1] == JPEGSegment.startOfImage {
            // Read on from where the sniff stopped: the path may be a pipe.
            var jpeg = Array(head[..<n])
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while case let count = try buffer.withUnsafeMutableBytes({ try file.read(into: $0) }), count > 0 {
                jpeg += buffer[..<count]
            }
            return try verify(jpeg: jpeg)
        }
        guard n == 8, Array(head[4..<8]) == Array("ftyp".utf8) else {
            throw C2PAError.unsupported("\(path) is neither a JPEG nor an MP4")
        }
        return try verify(mp4Path: path)
    }
}

/// The signed asset as the hard-binding checks read it.
private enum Asset {
    /// A JPEG in memory and where its manifest store sits in it.
    case jpeg(bytes: [UInt8], storeLocation: Range<Int>)
    /// An ISO-BMFF file, read again from disk when hashed.
    case bmff(path: String, boxes: [BMFFBox])
}

/// One verification run: collects statuses while it walks the manifest.
private struct Check {
    var statuses: [ValidationStatus] = []
    var summary = VerificationReport(state: .invalid, statuses: [], actions: [])

    mutating func add(_ kind: ValidationStatus.Kind, _ code: String, _ explanation: String, url: String? = nil) {
        statuses.append(ValidationStatus(kind, code, explanation, url: url))
    }

    func report() -> VerificationReport {
        var report = summary
        report.statuses = statuses
        report.state = ValidationState(statuses: statuses)
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

    mutating func verify(store: ManifestStore, asset: Asset, anchors: [Certificate], now: Date) {
        guard let manifest = store.activeManifest else { return }
        summary.manifestLabel = manifest.label
        let claim: Claim
        do {
            claim = try manifest.claim()
        } catch {
            add(.failure, StatusCode.claimMalformed, "the claim is missing or unreadable: \(error)")
            return
        }
        summary.claimVersion = claim.version
        summary.claimGenerator = [claim.generatorName, claim.generatorVersion].compactMap { $0 }.joined(separator: " ")
        let signatureURL = "self#jumbf=/c2pa/\(manifest.label)/c2pa.signature"
        verifySignature(manifest: manifest, claim: claim, anchors: anchors, now: now, url: signatureURL)
        verifyAssertions(manifest: manifest, claim: claim, asset: asset)
    }

    // MARK: Signature and credential

    private mutating func verifySignature(manifest: Manifest, claim: Claim, anchors: [Certificate], now: Date, url: String) {
        guard let coseBytes = manifest.signatureBox?.content("cbor") else {
            add(.failure, StatusCode.claimSignatureMissing, "claim signature is missing", url: url)
            return
        }
        let cose: COSESign1
        do { cose = try COSESign1(encoded: coseBytes) } catch {
            add(.failure, StatusCode.claimSignatureMismatch, "claim signature does not parse: \(error)", url: url)
            return
        }
        guard let algorithm = cose.algorithm else {
            add(.failure, StatusCode.algorithmUnsupported, "signature algorithm is not supported", url: url)
            return
        }
        let chain: [Certificate]
        do {
            chain = try cose.certificateChainDER.map { try Certificate(der: $0) }
        } catch {
            add(.failure, StatusCode.signingCredentialInvalid, "certificate does not parse: \(error)", url: url)
            return
        }
        guard let leaf = chain.first else {
            add(.failure, StatusCode.signingCredentialInvalid, "signature carries no certificate", url: url)
            return
        }
        summary.signer = SignerSummary(subject: leaf.subject, issuer: leaf.issuer, notBefore: leaf.notBefore,
                                       notAfter: leaf.notAfter, algorithm: algorithm.rawValue)
        // Like c2pa-rs, every check runs even after one fails, so a report lists all that is wrong.
        let violation = CertificateProfile.violation(leaf, algorithm: algorithm)
        if let violation { add(.failure, StatusCode.signingCredentialInvalid, violation, url: url) }
        let message = COSESign1.toBeSigned(protectedBytes: cose.protectedBytes, payload: claim.bytes)
        if leaf.publicKey.verify(signature: cose.signature, message: message, scheme: algorithm.scheme) {
            add(.success, StatusCode.claimSignatureValidated, "claim signature valid", url: url)
            if now >= leaf.notBefore && now <= leaf.notAfter {
                add(.success, StatusCode.claimSignatureInsideValidity, "claim signature inside validity", url: url)
            }
        } else {
            add(.failure, StatusCode.claimSignatureMismatch, "claim signature is not valid", url: url)
        }
        // A credential outside the profile is not trusted, whatever it chains to; without a
        // time-stamp, validity is judged against now, so an expired signer is not trusted either.
        if violation != nil {
            add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: not a valid C2PA signer", url: url)
        } else if now < leaf.notBefore || now > leaf.notAfter {
            add(.failure, StatusCode.signingCredentialExpired, "certificate expired or not yet valid at \(now)", url: url)
            add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: outside its validity", url: url)
        } else if let reason = ChainVerifier.verify(leaf: leaf, intermediates: Array(chain.dropFirst()),
                                                    anchors: anchors, at: nil) {
            add(.failure, StatusCode.signingCredentialUntrusted, "signing certificate untrusted: \(reason)", url: url)
        } else {
            add(.success, StatusCode.signingCredentialTrusted, "signing certificate trusted, found in trust list", url: url)
        }
    }

    // MARK: Assertions and hard binding

    private mutating func verifyAssertions(manifest: Manifest, claim: Claim, asset: Asset) {
        var hardBindings = 0
        for reference in claim.assertionReferences {
            let url = reference.url
            guard let target = reference.assertionTarget,
                  target.manifest == nil || target.manifest == manifest.label,
                  let box = manifest.assertion(labeled: target.label) else {
                add(.failure, StatusCode.assertionMissing, "assertion missing: \(url)", url: url)
                continue
            }
            guard let algorithm = DigestAlgorithm(rawValue: reference.algorithm ?? claim.algorithmName) else {
                add(.failure, StatusCode.algorithmUnsupported, "hash algorithm is not supported", url: url)
                continue
            }
            if Digest.hash(box.payload, algorithm: algorithm) == reference.hash {
                add(.success, StatusCode.hashedURIMatch, "hashed uri matched: \(url)", url: url)
                read(box, label: target.label)
            } else {
                add(.failure, StatusCode.hashedURIMismatch, "hash does not match assertion data: \(url)", url: url)
            }
            switch Labels.base(target.label) {
            case Labels.dataHash:
                hardBindings += 1
                verifyDataHash(box, claim: claim, asset: asset, url: url)
            case Labels.bmffHash where target.label != Labels.bmffHash:  // plain v1 is ignored, as c2pa-rs does
                hardBindings += 1
                verifyBMFFHash(box, claim: claim, asset: asset, url: url)
            default:
                break
            }
        }
        if hardBindings == 0 {
            add(.failure, StatusCode.hardBindingsMissing, "claim has no hard binding")
        }
    }

    private mutating func verifyDataHash(_ box: JUMBFSuperbox, claim: Claim, asset: Asset, url: String) {
        let binding: DataHashAssertion
        do {
            guard let cbor = box.content("cbor") else { throw C2PAError.malformed("no CBOR content") }
            binding = try DataHashAssertion(cbor: try CBORDecoder.decode(cbor), claimAlgorithm: claim.algorithm ?? .sha256)
        } catch {
            add(.failure, StatusCode.dataHashMalformed, "data hash assertion is malformed: \(error)", url: url)
            return
        }
        guard case .jpeg(let bytes, let storeLocation) = asset else {
            add(.failure, StatusCode.dataHashMismatch, "lensd checks c2pa.hash.data on JPEG files only", url: url)
            return
        }
        // The exclusion must be exactly the store: anything else leaves bytes unsigned or hides a move.
        let excluded = binding.exclusions.map { $0.start..<($0.start + $0.length) }
        if !excluded.contains(storeLocation) {
            add(.failure, StatusCode.dataHashMismatch,
                "data hash exclusion does not match the manifest location in the asset", url: url)
        }
        guard let digest = DataHash.compute(bytes, excluding: binding.exclusions, algorithm: binding.algorithm) else {
            add(.failure, StatusCode.dataHashMismatch, "data hash exclusions are out of range", url: url)
            return
        }
        if digest == binding.hash {
            add(.success, StatusCode.dataHashMatch, "data hash valid", url: url)
        } else {
            add(.failure, StatusCode.dataHashMismatch, "asset hash error, name: jumbf manifest, error: hash verification", url: url)
        }
    }

    /// Like c2pa-rs: an assertion that does not read is malformed; anything that stops the hash
    /// (an exclusion lensd cannot evaluate, a file that ends early) is a mismatch.
    private mutating func verifyBMFFHash(_ box: JUMBFSuperbox, claim: Claim, asset: Asset, url: String) {
        let binding: BMFFHashAssertion
        do {
            guard let cbor = box.content("cbor") else { throw C2PAError.malformed("no CBOR content") }
            binding = try BMFFHashAssertion(cbor: try CBORDecoder.decode(cbor), claimAlgorithm: claim.algorithm ?? .sha256)
        } catch {
            add(.failure, StatusCode.bmffHashMalformed, "bmff hash assertion is malformed: \(error)", url: url)
            return
        }
        let name = binding.name ?? "unnamed"
        do {
            guard case .bmff(let path, let boxes) = asset else {
                throw C2PAError.unsupported("lensd checks c2pa.hash.bmff on ISO-BMFF files only")
            }
            let file = try POSIXFile(path: path, flags: O_RDONLY)
            let digest = try BMFFHash.digest(of: file, boxes: boxes, exclusions: binding.exclusions, algorithm: binding.algorithm)
            guard digest == binding.hash else { throw C2PAError.malformed("BMFF file level hash mismatch") }
            add(.success, StatusCode.bmffHashMatch, "data hash valid", url: url)
        } catch {
            add(.failure, StatusCode.bmffHashMismatch, "asset hash error, name: \(name), error: \(error)", url: url)
        }
    }

    /// Keeps what the report shows: actions and capture metadata.
    private mutating func read(_ box: JUMBFSuperbox, label: String) {
        switch Labels.base(label) {
        case "c2pa.actions":
            guard let bytes = box.content("cbor"), let cbor = try? CBORDecoder.decode(bytes) else { return }
            summary.actions = (cbor["actions"]?.arrayValue ?? []).compactMap { action in
                guard let name = action["action"]?.textValue else { return nil }
                return ActionSummary(action: name, when: action["when"]?.untagged.textValue,
                                     digitalSourceType: action["digitalSourceType"]?.textValue)
            }
        case Labels.metadata:
            summary.metadata = box.content("json").flatMap { try? JSONValue(parsing: $0) }
        default:
            break
        }
    }
}
