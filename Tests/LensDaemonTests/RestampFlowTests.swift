import Foundation
import LensBus
import LensCrypto
import LensTestSupport
import XCTest

/// `timestamp = when-online` in process with the TSA down: photos and a video are signed without
/// a token and queued; once the TSA is back each gets an update manifest that time-stamps it
/// (ResultUpdated, ReadResult's new bytes), which c2pa-python accepts today and two years on.
/// (The queue retries on its own thread, in real time.) A SIGKILL while the queue works stays on
/// the bus (RestampTests).
final class RestampFlowTests: TimeStampFlowTestCase {
    private var log: CapturedLog?

    override func tearDownWithError() throws {
        defer { log?.restore(printing: (testRun?.totalFailureCount ?? 0) > 0) }
        try super.tearDownWithError()
    }

    func testOfflineCapturesAreTimeStampedWhenTheTSAComesBack() throws {
        try startDaemon()
        let port = tsa.port
        tsa.stop()
        let (c, session) = try capturingSession()
        var names = try offlinePhotos(2, c, session)
        try shortRecording(c, session)
        let video = try c.waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        XCTAssertEqual(video.arguments.last?.vardictValue?["timestamped"]?.boolValue, false)
        names.append(try XCTUnwrap(video.arguments.first?.stringValue))
        XCTAssertEqual(queued().count, 3, "\(queued())")

        let mark = c.signals.count
        tsa = try LocalTSA(directory: tmp.file("tsa"), port: port)
        let anchors = try anchors(c)
        for name in names {
            let updated = try c.firstSignal("ResultUpdated", path: session, since: mark, timeout: .seconds(60)) {
                $0.arguments.first?.stringValue == name
            }
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
            try TimeStampedLater.assert(file, anchors: anchors, home: tmp.url)
        }
        XCTAssertEqual(queued(), [])
        XCTAssertEqual(lensd.stateFiles.temporaryFiles, [])
    }

    /// A TSA that does not answer in time costs the first capture its tsa-timeout; the next ones
    /// do not wait for it again: they are signed at once and queued, and stamped once it answers.
    func testWhileNoTSAAnswersCapturesDoNotWaitForIt() throws {
        let log = try CapturedLog(in: tmp)
        self.log = log
        try tsa.delay(10)
        try startDaemon()
        let (c, session) = try capturingSession()
        let names = try offlinePhotos(2, c, session)
        XCTAssertTrue(log.text.contains("\(names[0]) signed and stored"), log.text)
        XCTAssertTrue(log.text.contains("not time-stamped: the last request went unanswered"), log.text)
        let mark = c.signals.count
        try tsa.set(.ok)
        for name in names {
            try c.firstSignal("ResultUpdated", path: session, since: mark, timeout: .seconds(60)) { $0.arguments.first?.stringValue == name }
        }
    }

    /// Photos taken while the TSA is down: signed, but not time-stamped.
    private func offlinePhotos(_ count: Int, _ c: HarnessClient, _ session: String) throws -> [String] {
        try (0..<count).map { _ in
            let (name, info) = try c.photo(in: session)
            XCTAssertEqual(info["timestamped"]?.boolValue, false)
            return name
        }
    }

    private func queued() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: lensd.stateFiles.directory.appendingPathComponent("restamp").path)) ?? [])
            .filter { $0.hasSuffix(".json") }
    }

    private func sha256(of file: URL) throws -> String {
        Digest.hash(Array(try Data(contentsOf: file))).map { String(format: "%02x", $0) }.joined()
    }
}
