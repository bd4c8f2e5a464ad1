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
    /// `actions` (JSON): the actions assertion's action list becomes it.
    @discardableResult
    static func rewrite(_ input: URL, into output: URL, pki: TestPKI, _ shapes: [Shape], identity: Bool = false,
                        actions: String? = nil) throws -> URL {
        try TestTools.runOracle("rewrite_manifest.py", [input.path, output.path, "--key", pki.key.path] + shapes.map(\.rawValue)
            + (identity ? ["--cawg-identity", pki.leaf.path] : []) + (actions.map { ["--actions", $0] } ?? []))
        return output
    }
}
