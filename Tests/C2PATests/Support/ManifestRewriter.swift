import Foundation
import LensTestSupport

/// Tests/oracle/rewrite_manifest.py: re-signs a c2pa-python file's active manifest in the
/// older shapes the reference still reads (hand-written CBOR).
enum ManifestRewriter {
    enum Shape: String, CaseIterable {
        case indefiniteCBOR = "--indefinite-cbor"
        case explicitNulls = "--explicit-nulls"
        case relativeURIs = "--relative-uris"
        case plainBMFFHash = "--plain-bmff-hash"
    }

    /// `identity`: also add a CAWG X.509 identity assertion signed with the PKI's leaf.
    /// `claimsAggregation` (JSON, see rewrite_manifest.py --cawg-ica): add an identity claims
    /// aggregation credential instead, bent as it says. `identityShape` (JSON): the added identity's
    /// CBOR changed (pads, sig_type, a renamed field). `actions` (JSON): the actions assertion's
    /// action list becomes it.
    @discardableResult
    static func rewrite(_ input: URL, into output: URL, pki: TestPKI, _ shapes: [Shape], identity: Bool = false,
                        claimsAggregation: String? = nil, identityShape: String? = nil, actions: String? = nil) throws -> URL {
        var arguments = [input.path, output.path, "--key", pki.key.path] + shapes.map(\.rawValue)
        if identity { arguments += ["--cawg-identity", pki.leaf.path] }
        if let claimsAggregation { arguments += ["--cawg-ica", claimsAggregation] }
        if let identityShape { arguments += ["--identity-shape", identityShape] }
        if let actions { arguments += ["--actions", actions] }
        try TestTools.runOracle("rewrite_manifest.py", arguments)
        return output
    }
}
