import Foundation
import LensContract
@testable import LensDaemon
import LensTestSupport

extension DaemonHarness {
    /// The trust anchor GetTrustAnchor answers, as a PEM file for c2pa-python.
    func trustAnchorFile() throws -> URL {
        guard let pem = try client().callManager("GetTrustAnchor").first?.stringValue else { throw HarnessError("no trust anchor") }
        let url = tmp.file("anchor.pem")
        try pem.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Every file in the state directory whose name marks an unfinished write.
    func temporaryFiles() -> [String] {
        let all = FileManager.default.enumerator(atPath: configuration.stateDirectory)?.allObjects as? [String] ?? []
        return all.filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp") }
    }

    /// Where the store keeps result `name` of `uid` (root unless told).
    func storedFile(_ name: String, uid: UInt32 = 0) throws -> URL {
        URL(fileURLWithPath: try store.result(name: name, uid: uid).path)
    }
}
