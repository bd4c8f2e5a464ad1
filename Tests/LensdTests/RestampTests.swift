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
            try TimeStampedLater.assert(file, anchors: anchors, home: tmp.url)
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
}
