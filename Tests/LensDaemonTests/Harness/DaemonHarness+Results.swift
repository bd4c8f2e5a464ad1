import Foundation
import LensContract
@testable import LensDaemon
import LensTestSupport

extension DaemonHarness {
    /// The trust anchor GetTrustAnchor answers, as a PEM file for c2pa-python.
    func trustAnchorFile() throws -> URL {
        try client().trustAnchorFile(in: tmp)
    }

    /// Where the store keeps result `name` of `uid` (root unless told).
    func storedFile(_ name: String, uid: UInt32 = 0) throws -> URL {
        URL(fileURLWithPath: try store.result(name: name, uid: uid).path)
    }
}
