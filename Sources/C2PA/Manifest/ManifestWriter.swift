import FoundationEssentials
import LensCrypto

/// Builds and signs one manifest store around a list of created assertions and a hard binding —
/// or, for an update manifest, no binding and the store's earlier manifests before it.
/// It knows nothing about containers: a JPEG or MP4 writer supplies the hard binding and places
/// the bytes. Labels and salts are fixed at creation, so every layout of the same writer has the
/// same size as long as the hard binding keeps its size — which lets containers size the store
/// before the asset hash is known and sign exactly once.
public struct ManifestWriter: Sendable {
    public let manifestLabel: String
    public let instanceID: String
    private let generator: ClaimGeneratorInfo
    private let assertions: [any Assertion]
    private let signer: ClaimSigner
    private let timeStamper: (any TimeStamper)?
    private let salts: [[UInt8]]
    private let hardBindingSalt: [UInt8]
    private let kind: JUMBFType

    /// With a `timeStamper`, the signature's unprotected header reserves room for its token.
    public init(generator: ClaimGeneratorInfo, assertions: [any Assertion], signer: ClaimSigner,
                timeStamper: (any TimeStamper)? = nil) {
        self.init(kind: .manifest, generator: generator, assertions: assertions, signer: signer, timeStamper: timeStamper)
    }

    /// An update manifest (`c2um`, C2PA 2.2 §11.2.3): it amends the store's active manifest and
    /// binds nothing itself (see `signedUpdate(after:)`).
    public static func update(generator: ClaimGeneratorInfo, assertions: [any Assertion], signer: ClaimSigner,
                              timeStamper: (any TimeStamper)? = nil) -> ManifestWriter {
        ManifestWriter(kind: .updateManifest, generator: generator, assertions: assertions, signer: signer, timeStamper: timeStamper)
    }

    private init(kind: JUMBFType, generator: ClaimGeneratorInfo, assertions: [any Assertion], signer: ClaimSigner,
                 timeStamper: (any TimeStamper)?) {
        self.kind = kind
        let id = UUID().uuidString.lowercased()
        manifestLabel = "urn:c2pa:\(id)"
        instanceID = "xmp.iid:\(id)"
        self.generator = generator
        self.assertions = assertions
        self.signer = signer
        self.timeStamper = timeStamper
        salts = assertions.map { _ in Self.randomSalt() }
        hardBindingSalt = Self.randomSalt()
    }

    /// The store with `hardBinding` in place, signed.
    public func signedStore(hardBinding: any Assertion) throws -> [UInt8] {
        try store(hardBinding: hardBinding) { try COSESign1.sign(payload: $0, signer: signer, timeStamper: timeStamper) }
    }

    /// The store `existing` (its exact bytes) with this update manifest signed and appended as the
    /// active one: the earlier manifests are copied byte for byte, so their hashes still hold.
    public func signedUpdate(after existing: [UInt8]) throws -> [UInt8] {
        let root = try JUMBFParser.parseSuperbox(existing)
        guard root.description.type == .manifestStore, root.encoded == existing else {
            throw C2PAError.malformed("the manifest store to update is not one plain JUMBF superbox")
        }
        let update = try manifest(hardBinding: nil) { try COSESign1.sign(payload: $0, signer: signer, timeStamper: timeStamper) }
        return JUMBFWriter.box(type: "jumb", payload: root.payload + update.encoded)
    }

    /// The size `signedStore` will have, without signing.
    public func storeSize(hardBinding: any Assertion) throws -> Int {
        try store(hardBinding: hardBinding) { _ in
            try COSESign1.encodeUnsigned(signer: signer, tokenReserve: timeStamper?.tokenReserve)
        }.count
    }

    private func store(hardBinding: any Assertion, signature: ([UInt8]) throws -> [UInt8]) throws -> [UInt8] {
        JUMBFSuperbox(description: JUMBFDescription(type: .manifestStore, label: Labels.manifestStore),
                      children: [.superbox(try manifest(hardBinding: hardBinding, signature: signature))]).encoded
    }

    private func manifest(hardBinding: (any Assertion)?, signature: ([UInt8]) throws -> [UInt8]) throws -> JUMBFSuperbox {
        var assertionBoxes: [JUMBFSuperbox] = []
        var references: [HashedURI] = []
        let bound = hardBinding.map { [($0, hardBindingSalt)] } ?? []
        for (assertion, salt) in Array(zip(assertions, salts)) + bound {
            let content = try (assertion as? any ReferencingAssertion)?.content(referencing: references) ?? assertion.content()
            let box = JUMBFSuperbox(description: JUMBFDescription(type: content.jumbfType, label: assertion.label, salt: salt),
                                    children: content.boxes)
            assertionBoxes.append(box)
            references.append(HashedURI(url: "self#jumbf=\(Labels.assertionStore)/\(assertion.label)", hash: Digest.hash(box.payload)))
        }
        let claim = Claim.encodeV2(
            instanceID: instanceID, generator: generator,
            signatureURL: "self#jumbf=/\(Labels.manifestStore)/\(manifestLabel)/\(Labels.signature)",
            createdAssertions: references, algorithm: .sha256)
        return JUMBFSuperbox(
            description: JUMBFDescription(type: kind, label: manifestLabel),
            children: [
                .superbox(JUMBFSuperbox(description: JUMBFDescription(type: .assertionStore, label: Labels.assertionStore),
                                        children: assertionBoxes.map { .superbox($0) })),
                .superbox(JUMBFSuperbox(description: JUMBFDescription(type: .claim, label: Labels.claimV2),
                                        children: [.content(type: "cbor", payload: claim)])),
                .superbox(JUMBFSuperbox(description: JUMBFDescription(type: .claimSignature, label: Labels.signature),
                                        children: [.content(type: "cbor", payload: try signature(claim))])),
            ])
    }

    private static func randomSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
