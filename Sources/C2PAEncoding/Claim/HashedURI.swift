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

    package var cbor: CBOR {
        var entries: [(String, CBOR)] = [("url", .text(url)), ("hash", .bytes(hash))]
        if let algorithm { entries.append(("alg", .text(algorithm))) }
        return .textMap(entries)
    }

    package init?(cbor: CBOR) {
        guard let url = cbor["url"]?.textValue, let hash = cbor["hash"]?.bytesValue else { return nil }
        self.init(url: url, hash: hash, algorithm: cbor["alg"]?.textValue)
    }

    /// The assertion label the URI points at, and the manifest label when the URI names one.
    package var assertionTarget: (manifest: String?, label: String)? {
        guard let uri = JUMBFURI(url), let label = uri.assertionLabel else { return nil }
        return (uri.manifest, label)
    }
}
