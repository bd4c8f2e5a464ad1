/// A reference from the claim to an assertion: its JUMBF URI and the hash of its superbox payload.
public struct HashedURI: Hashable, Sendable {
    public var url: String
    public var hash: [UInt8]
    /// Only when it differs from the claim's algorithm.
    public var algorithm: String?

    public init(url: String, hash: [UInt8], algorithm: String? = nil) {
        self.url = url
        self.hash = hash
        self.algorithm = algorithm
    }

    var cbor: CBOR {
        var entries: [(String, CBOR)] = [("url", .text(url)), ("hash", .bytes(hash))]
        if let algorithm { entries.append(("alg", .text(algorithm))) }
        return .textMap(entries)
    }

    init?(cbor: CBOR) {
        guard let url = cbor["url"]?.textValue, let hash = cbor["hash"]?.bytesValue else { return nil }
        self.init(url: url, hash: hash, algorithm: cbor["alg"]?.textValue)
    }

    /// The assertion label the URI points at, and the manifest label when the URI is absolute.
    /// "self#jumbf=c2pa.assertions/c2pa.metadata" → (nil, "c2pa.metadata");
    /// "self#jumbf=/c2pa/urn:c2pa:…/c2pa.assertions/c2pa.metadata" → ("urn:c2pa:…", "c2pa.metadata").
    var assertionTarget: (manifest: String?, label: String)? {
        guard url.hasPrefix("self#jumbf=") else { return nil }
        let path = url.dropFirst("self#jumbf=".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if path.count == 2, path[0] == Labels.assertionStore { return (nil, path[1]) }
        if path.count == 5, path[0].isEmpty, path[1] == Labels.manifestStore, path[3] == Labels.assertionStore {
            return (path[2], path[4])
        }
        return nil
    }
}
