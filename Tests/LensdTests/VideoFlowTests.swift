import Foundation
import LensBus
import LensTestSupport
import XCTest

/// What a crash (SIGKILL) or a service stop (SIGTERM) of the lensd process does to a recording
/// on the synthetic camera, judged by c2pa-python and FFmpeg. The recording flows themselves run
/// in process (LensDaemonTests' VideoRecordingFlowTests).
final class VideoFlowTests: LensdTestCase {
    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-size", "320x240"] }

    /// lensd killed mid-recording: after the restart the recording plays up to its last complete
    /// fragment and is signed; the photo taken before it is still there.
    func testARecordingInterruptedByACrashIsRecoveredAndSigned() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let photo = try XCTUnwrap(try c.call(session, "BeginCapture").first?.stringValue)
        _ = try c.waitForSignal("PhotoSigned")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        let journal = try waitForJournalFragments(2)
        daemon.stop(signal: SIGKILL)
        let name = String(journal.lastPathComponent.dropFirst(".recording-".count).prefix(36))

        try restartDaemon()
        // Its owner is told on their next session, whether it opens before or after the recovery.
        let owner = try client()
        let next = try owner.openSession()
        let announced = try owner.waitForSignal("VideoSigned", path: next, timeout: 60)
        XCTAssertEqual(announced.arguments.first?.stringValue, name)
        XCTAssertEqual(announced.arguments.last?.vardictValue?["recovered"]?.boolValue, true)
        let stored = try waitForStoredVideo(named: name)
        let probe = try FFprobeReport.read(stored)
        XCTAssertEqual(probe.decodeErrors, "")
        // One fragment per second of frames: at least the first two were complete.
        XCTAssertGreaterThanOrEqual(probe.frames, 50, "\(probe)")
        try ReferenceValidator.assertTrusted(stored, anchors: [try client().trustAnchorFile(in: tmp)])
        XCTAssertTrue(daemon.log.contains("video \(name): recovered after a crash"), daemon.log)
        XCTAssertTrue(storedPhotos().contains { $0.lastPathComponent == "\(photo).jpg" })
        XCTAssertTrue(recordingJournals().isEmpty, "\(recordingJournals())")
    }

    /// A service stop (SIGTERM) mid-recording ends it like StopVideoCapture: lensd signs and
    /// publishes it before exiting, and the owner hears about it.
    func testAServiceStopFinishesTheRecordingFirst() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        let anchor = try c.trustAnchorFile(in: tmp)
        try c.waitUntilRecorded(session, seconds: 1.5)
        kill(daemon.pid, SIGTERM)
        let signed = try c.waitForSignal("VideoSigned", path: session, timeout: 30)
        let name = try XCTUnwrap(signed.arguments.first?.stringValue)
        daemon.process?.waitUntilExit()
        XCTAssertEqual(daemon.process?.terminationStatus, 0, daemon.log)
        let stored = try waitForStoredVideo(named: name, timeout: 1)
        try ReferenceValidator.assertTrusted(stored, anchors: [anchor])
        XCTAssertFalse(daemon.log.contains("recovered after a crash"), daemon.log)
        XCTAssertTrue(recordingJournals().isEmpty, "\(recordingJournals())")
    }

    /// Without the facts written at its start, a recovered recording cannot say what made it:
    /// it is kept playable but unsigned.
    func testARecoveredRecordingWithoutItsFactsIsKeptUnsigned() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        let journal = try waitForJournalFragments(1)
        daemon.stop(signal: SIGKILL)
        try FileManager.default.removeItem(at: journal.appendingPathExtension("facts"))
        let name = String(journal.lastPathComponent.dropFirst(".recording-".count).prefix(36))

        try restartDaemon()
        let stored = try waitForStoredVideo(named: name)
        XCTAssertEqual(try FFprobeReport.read(stored).decodeErrors, "")
        let verdict = try ReferenceValidator.verdict(file: stored)
        XCTAssertEqual(verdict.exitStatus, 2, "no manifest expected: \(verdict.validationState ?? "-")")
        // Published while its owner had no session: told when the next one opens.
        let owner = try client()
        let next = try owner.openSession()
        let announced = try owner.waitForSignal("VideoUnsigned", path: next)
        XCTAssertEqual(announced.arguments.first?.stringValue, name)
        let info = try XCTUnwrap(announced.arguments.last?.vardictValue)
        XCTAssertEqual(info["recovered"]?.boolValue, true)
        XCTAssertTrue(info["reason"]?.stringValue?.contains("lost in the crash") == true, "\(info)")
        XCTAssertTrue(daemon.log.contains("kept unsigned"), daemon.log)
    }

    // MARK: Helpers

    private func recordingJournals() -> [URL] {
        allFiles().filter { $0.lastPathComponent.hasPrefix(".recording-") && $0.pathExtension == "mp4" }
    }

    private func allFiles() -> [URL] {
        let results = daemon.stateDirectory.appendingPathComponent("results")
        let enumerator = FileManager.default.enumerator(atPath: results.path)
        return (enumerator?.allObjects as? [String] ?? []).map { results.appendingPathComponent($0) }
    }

    private func waitForStoredVideo(named name: String? = nil, timeout: TimeInterval = 60) throws -> URL {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = allFiles().first(where: {
                $0.pathExtension == "mp4" && !$0.lastPathComponent.hasPrefix(".") && (name == nil || $0.lastPathComponent == "\(name!).mp4")
            }) { return found }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw TestToolError("no stored video after \(timeout) s:\n\(daemon.log)")
    }
}
