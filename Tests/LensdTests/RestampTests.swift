import C2PA
import Foundation
import LensBus
import LensCrypto
import LensTestSupport
import XCTest

/// `timestamp = when-online` with the TSA down: photos and a video are signed without a token and
/// queued; once the TSA is back each gets an update manifest that time-stamps it (ResultUpdated,
/// FetchResult's new bytes), which c2pa-python accepts today and two years on. A SIGKILL while the
/// queue works loses no result and stamps none twice.
final class RestampTests: TimeStampTestCase {
    func testOfflineCapturesAreTimeStampedWhenTheTSAComesBack() throws {
        let port = tsa.port
        tsa.stop()
        let (c, session) = try capturingSession()
        var names = try offlinePhotos(2, c, session)
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStarted", path: session)
        // A recording stopped before its first frame is written has nothing to sign.
        try c.waitUntilRecorded(session, seconds: 0.1)
        try c.call(session, "StopVideoCapture")
        let video = try c.waitForSignal("VideoSigned", path: session, timeout: 60)
        XCTAssertEqual(video.arguments.last?.vardictValue?["timestamped"]?.boolValue, false)
        names.append(try XCTUnwrap(video.arguments.first?.stringValue))
        XCTAssertEqual(queued().count, 3, "\(queued())")

        tsa = try LocalTSA(directory: tmp.file("tsa"), port: port)
        let anchors = try anchors(c)
        for name in names {
            let updated = try c.waitForSignal("ResultUpdated", path: session, timeout: 60) { $0.arguments.first?.stringValue == name }
            let info = try XCTUnwrap(updated.arguments.last?.vardictValue)
            XCTAssertEqual(info["timestamped"]?.boolValue, true)
            XCTAssertNotNil(info["timestamp_time"]?.uint64Value)
            let file = try stored(name, name == names.last ? "mp4" : "jpg")
            XCTAssertEqual(info["sha256"]?.stringValue, try sha256(of: file))
            if name != names.last {
                // What the owner reads back now is the time-stamped file.
                let read = try XCTUnwrap(try c.call(session, "ReadResult", [.string(name)]).first?.bytesValue)
                XCTAssertEqual(Digest.hash(read).map { String(format: "%02x", $0) }.joined(), info["sha256"]?.stringValue)
            }
            try assertTimeStampedLater(file, anchors: anchors)
        }
        XCTAssertEqual(queued(), [])
        XCTAssertTrue(temporaryFiles().isEmpty, "\(temporaryFiles())")
    }

    /// A TSA that does not answer in time costs the first capture its tsa-timeout; the next ones
    /// do not wait for it again: they are signed at once and queued, and stamped once it answers.
    func testWhileNoTSAAnswersCapturesDoNotWaitForIt() throws {
        try tsa.delay(10)
        let (c, session) = try capturingSession()
        let names = try offlinePhotos(2, c, session)
        XCTAssertTrue(daemon.log.contains("\(names[0]) signed and stored"), daemon.log)
        XCTAssertTrue(daemon.log.contains("not time-stamped: the last request went unanswered"), daemon.log)
        try tsa.set(.ok)
        for name in names {
            try c.waitForSignal("ResultUpdated", path: session, timeout: 60) { $0.arguments.first?.stringValue == name }
        }
    }

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

    private func sha256(of file: URL) throws -> String {
        Digest.hash(Array(try Data(contentsOf: file))).map { String(format: "%02x", $0) }.joined()
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
