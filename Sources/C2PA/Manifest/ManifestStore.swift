/// A manifest store as read from an asset: its manifests in store order, the last one active.
public struct ManifestStore: Sendable {
    public let manifests: [Manifest]
    public var activeManifest: Manifest? { manifests.last }

    public init(jumbf bytes: [UInt8]) throws {
        let root = try JUMBFParser.parseSuperbox(bytes)
        guard root.description.type == .manifestStore else {
            throw C2PAError.malformed("the JUMBF superbox is not a C2PA manifest store")
        }
        manifests = root.superboxes
            .filter { $0.description.type == .manifest || $0.description.type == .updateManifest }
            .map(Manifest.init(box:))
        guard !manifests.isEmpty else { throw C2PAError.malformed("the manifest store holds no manifest") }
    }

    public func manifest(labeled label: String) -> Manifest? {
        manifests.first { $0.label == label }
    }
}

/// One manifest: its assertions by label, its claim box and its signature box.
public struct Manifest: Sendable {
    public let label: String
    /// An update manifest (`c2um`) amends its parent; it carries no hard binding of its own.
    public let isUpdate: Bool
    public let assertions: [JUMBFSuperbox]
    public let claimBox: JUMBFSuperbox?
    public let signatureBox: JUMBFSuperbox?
    /// The manifest superbox's payload: what an ingredient's hashed manifest reference covers.
    public let payload: [UInt8]

    init(box: JUMBFSuperbox) {
        label = box.label ?? ""
        isUpdate = box.description.type == .updateManifest
        payload = box.payload
        assertions = box.superboxes.first { $0.description.type == .assertionStore }?.superboxes ?? []
        claimBox = box.superboxes.first { $0.description.type == .claim }
        signatureBox = box.superboxes.first { $0.description.type == .claimSignature }
    }

    public func assertion(labeled label: String) -> JUMBFSuperbox? {
        assertions.first { $0.label == label }
    }

    /// The claim, v2 or v1 by its box label.
    public func claim() throws -> Claim {
        guard let box = claimBox, let bytes = box.content("cbor") else {
            throw C2PAError.malformed("the manifest has no claim")
        }
        return try Claim(bytes: bytes, version: box.label == Labels.claimV1 ? 1 : 2)
    }
}
