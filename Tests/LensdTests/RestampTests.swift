import C2PA
import Foundation
import LensBus
import LensTestSupport
import XCTest

/// `timestamp = when-online` with the TSA down: a SIGKILL of lensd while the queue time-stamps
/// what it signed offline loses no result and stamps none twice; each is accepted by c2pa-python
/// today and two years on. The queue's flow itself runs in process (LensDaemonTests'
/// RestampFlowTests).
final class RestampTests: TimeStampTestCase {
    /// Killed after the first of three is done, while the others wait on a slow TSA: after the
    /// restart every one is time-stamped, each with exactly one update manifest.
    func testASIGKILLWhileTheQueueRunsLosesNothingAndStampsNothingTwice() throws {
        let port = tsa.port
        tsa.stop()
        let (c, session) = try capturingSession()
        let names = try offlinePhotos(3, c, session)
        tsa = try LocalTSA(directory: tmp.file("tsa"), port: port)
        try tsa.delay(1)
        let first = try XCTUnwrap(try c.waitForSignal("ResultUpdated", path: session, timeout: 60).arguments.first?.stringValue)
        daemon.stop(signal: SIGKILL)
        try tsa.set(.ok)
        try restartDaemon()

        let again = try client()
        let reopened = try again.openSession()
        var updated = Set<String>()
        while !updated.isSuperset(of: names.filter { $0 != first }) {
            let signal = try again.waitForSignal("ResultUpdated", path: reopened, timeout: 60)
            updated.insert(try XCTUnwrap(signal.arguments.first?.stringValue))
        }
        XCTAssertEqual(queued(), [])
        let anchors = try anchors(again)
        for name in names {
            let file = try stored(name, "jpg")
            let report = try Verifier().verify(fileAt: file.path)
            XCTAssertEqual(report.manifests.filter(\.isUpdate).count, 1, "\(name): \(report.manifests.map(\.label))")
            try assertTimeStampedLater(file, anchors: anchors)
        }
        XCTAssertTrue(temporaryFiles().isEmpty, "\(temporaryFiles())")
    }

    /// Photos taken while the TSA is down: signed, but not time-stamped.
    private func offlinePhotos(_ count: Int, _ c: TestClient, _ session: String) throws -> [String] {
        try (0..<count).map { _ in
            let (name, info) = try photo(c, session)
            XCTAssertEqual(info["timestamped"]?.boolValue, false)
            return name
        }
    }

    private func queued() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory.appendingPathComponent("restamp").path)) ?? [])
            .filter { $0.hasSuffix(".json") }
    }

    /// Trusted today; two years on, past the device certificate, still valid (see RestampingTests);
    /// `lensctl verify` reaches c2pa-python's state both times and says when it was time-stamped.
    private func assertTimeStampedLater(_ file: URL, anchors: [URL], line: UInt = #line) throws {
        let today = try ReferenceValidator.verdict(file: file, anchors: anchors)
        XCTAssertEqual(today.validationState, "Trusted", "\(today.failureCodes) \(today.ingredientFailures)", line: line)
        XCTAssertTrue(today.claimAssertions.contains { $0.contains("c2pa.time-stamp") }, "\(today.claimAssertions)", line: line)
        let later = try ReferenceValidator.verdict(file: file, anchors: anchors, clockOffset: "+730d")
        XCTAssertTrue(later.validates, "\(later.validationState ?? "-"): \(later.failureCodes)", line: line)
        for (verdict, clock) in [(today, nil), (later, "+730d")] {
            var argv = [try LensctlRunner.binary, "verify", file.path, "--trust-anchor", anchors[0].path, "--tsa-trust-anchor", anchors[1].path]
            if let clock { argv = ["faketime", "-f", clock] + argv }
            let text = String(decoding: try runProcess(argv, env: ["HOME": tmp.url.path, "LENSCTL_TRUST_ANCHORS": ""]).stdout, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("\(file.path): \(verdict.validationState ?? "?")"), "lensctl \(clock ?? "today"): \(text)", line: line)
            XCTAssertTrue(text.contains("time-stamped 20"), text, line: line)
        }
    }
}
