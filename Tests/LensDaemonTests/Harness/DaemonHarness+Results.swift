import Foundation
import LensContract
import LensTestSupport

extension DaemonHarness {
    /// The trust anchor GetTrustAnchor answers, as a PEM file for c2pa-python.
    func trustAnchorFile() throws -> URL {
        guard let pem = try client().callManager("GetTrustAnchor").first?.stringValue else { throw HarnessError("no trust anchor") }
        let url = tmp.file("anchor.pem")
        try pem.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Where the store keeps result `name` of `uid` (root unless told).
    func storedFile(_ name: String, uid: UInt32 = 0) throws -> URL {
        URL(fileURLWithPath: try store.result(name: name, uid: uid).path)
    }
}

extension EmbeddedLoop {
    /// Runs posted work for `duration` of real time, for a test whose subject is that nothing
    /// more happens (the daemon's clock does not move).
    func runQuietly(for duration: Duration) {
        try? run(until: { false }, timeout: duration, "nothing")
    }
}
