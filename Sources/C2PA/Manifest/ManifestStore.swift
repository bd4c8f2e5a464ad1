/// A manifest store as read from an asset: its manifests in store order, the last one active.
public struct ManifestStore: Sendable {
    public let manifests: [Manifest]
    public var activeManifest: Manifest? { manifests.last }
    /// Label → first manifest with it: lookups stay cheap in a hostile store of many manifests.
    private let index: [String: Int]

    public init(jumbf bytes: [UInt8]) throws {
        let root = try JUMBFParser.parseSuperbox(bytes)
        guard root.description.type == .manifestStore else {
            throw C2PAError.malformed("the JUMBF superbox is not a C2PA manifest store")
        }
        manifests = root.superboxes
            .filter { $0.description.type == .manifest || $0.description.type == .updateManifest }
            .map(Manifest.init(box:))
        guard !manifests.isEmpty else { throw C2PAError.malformed("the manifest store holds no manifest") }
        index = Self.firstIndex(of: manifests.map(\.label))
    }

    public func manifest(labeled label: String) -> Manifest? {
        index[label].map { manifests[$0] }
    }

    static func firstIndex(of labels: [String?]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, label) in labels.enumerated() {
            if let label, index[label] == nil { index[label] = position }
        }
        return index
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
    private let assertionIndex: [String: Int]

    init(box: JUMBFSuperbox) {
        label = box.label ?? ""
        isUpdate = box.description.type == .updateManifest
        payload = box.payload
        assertions = box.superboxes.first { $0.description.type == .assertionStore }?.superboxes ?? []
        claimBox = box.superboxes.first { $0.description.type == .claim }
        signatureBox = box.superboxes.first { $0.description.type == .claimSignature }
        assertionIndex = ManifestStore.firstIndex(of: assertions.map(\.label))
    }

    public func assertion(labeled label: String) -> JUMBFSuperbox? {
        assertionIndex[label].map { assertions[$0] }
    }

    /// The claim, v2 or v1 by its box label.
    public func claim() throws -> Claim {
        guard let box = claimBox, let bytes = box.content("cbor") else {
            throw C2PAError.malformed("the manifest has no claim")
        }
        return try Claim(bytes: bytes, version: box.label == Labels.claimV1 ? 1 : 2)
    }
}
