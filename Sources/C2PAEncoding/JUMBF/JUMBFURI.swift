/// A JUMBF URI (`self#jumbf=…`, spec §8.4.2.2) as the claim writes it: absolute
/// (`/c2pa/<manifest>/…`), absolute without the leading slash (`c2pa/<manifest>/…`, which older
/// writers produced and c2pa-rs accepts), or relative to the manifest that holds it (`c2pa.assertions/…`).
public struct JUMBFURI: Sendable, Equatable {
    static let scheme = "self#jumbf="

    /// The manifest the URI names; nil when it is relative to its own manifest.
    public let manifest: String?
    /// The labels below the manifest, e.g. ["c2pa.assertions", "c2pa.metadata"] or ["c2pa.claim.v2"].
    public let path: [String]

    public init?(_ text: String) {
        guard text.hasPrefix(Self.scheme) else { return nil }
        var parts = text.dropFirst(Self.scheme.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "" { parts.removeFirst() }
        if parts.count >= 2, parts[0] == Labels.manifestStore {
            guard !parts[1].isEmpty else { return nil }
            manifest = parts[1]
            parts.removeFirst(2)
        } else {
            manifest = nil
        }
        guard !parts.contains(where: \.isEmpty) else { return nil }
        path = parts
    }

    /// The assertion label when the URI points into an assertion store.
    public var assertionLabel: String? {
        path.count == 2 && path[0] == Labels.assertionStore ? path[1] : nil
    }
}
