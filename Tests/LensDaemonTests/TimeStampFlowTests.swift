import Foundation
import LensBus
import LensContract
import LensTestSupport
import XCTest

/// lensd in process with a real RFC 3161 TSA (Tests/oracle/local_tsa.py, OpenSSL's `ts -reply`)
/// named by tsa-url: what PhotoSigned/VideoSigned say, and what c2pa-python makes of the files,
/// today and two years on, when the device certificate has long expired. The background check of
/// `timestamp = required` runs on the loop's clock, which the tests move.
class TimeStampFlowTestCase: XCTestCase {
    var tmp: TemporaryDirectory!
    var tsa: LocalTSA!
    var lensd: DaemonHarness!
    var policy: String { "when-online" }

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-timestamp-flow")
        tsa = try LocalTSA(directory: tmp.file("tsa"))
    }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        try lensd?.shutDown()
        lensd = nil
        tsa = nil
    }

    /// lensd with the TSA, its anchor, a 2 s tsa-timeout and `policy`.
    func startDaemon(_ arguments: [String] = []) throws {
        lensd = try DaemonHarness(["--tsa-url", tsa.url, "--tsa-trust-anchor", tsa.root.path, "--tsa-timeout", "2",
                                   "--timestamp", policy] + arguments)
    }

    /// A client of the started daemon and its session holding the camera.
    func capturingSession() throws -> (client: HarnessClient, session: String) {
        let c = lensd.client()
        return (c, try c.claimedSession())
    }

    func anchors(_ c: HarnessClient) throws -> [URL] { [try c.trustAnchorFile(in: tmp), tsa.root] }

    func stored(_ name: String, _ ext: String) throws -> URL {
        try XCTUnwrap(ext == "jpg" ? lensd.stateFiles.photo(named: name) : lensd.stateFiles.video(named: name), "\(lensd.stateFiles.all)")
    }

    /// StartVideoCapture, a tenth of a second of frames (a recording stopped before its first
    /// frame is written has nothing to sign), StopVideoCapture.
    func shortRecording(_ c: HarnessClient, _ session: String) throws {
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStarted", path: session)
        try c.waitUntilRecorded(session, seconds: 0.1)
        try c.call(session, "StopVideoCapture")
    }
}

final class TimeStampWhenOnlineFlowTests: TimeStampFlowTestCase {
    func testOnlinePhotosAndVideosAreStampedAndStayTrustedAfterTheCertificateExpires() throws {
        try startDaemon()
        let (c, session) = try capturingSession()
        let (photo, info) = try c.photo(in: session)
        XCTAssertEqual(info["timestamped"]?.boolValue, true)
        let time = Double(try XCTUnwrap(info["timestamp_time"]?.uint64Value))
        XCTAssertEqual(time, Date().timeIntervalSince1970, accuracy: 60)
        try assertStillTrustedTwoYearsOn(try stored(photo, "jpg"), anchors: try anchors(c))

        try shortRecording(c, session)
        let video = try c.waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        let videoInfo = try XCTUnwrap(video.arguments.last?.vardictValue)
        XCTAssertEqual(videoInfo["timestamped"]?.boolValue, true)
        XCTAssertNotNil(videoInfo["timestamp_time"]?.uint64Value)
        try assertStillTrustedTwoYearsOn(try stored(try XCTUnwrap(video.arguments.first?.stringValue), "mp4"), anchors: try anchors(c))
    }

    /// The TSA down: the photo is signed all the same, says so, and turns Invalid with the certificate.
    func testWithTheTSADownAPhotoIsSignedWithoutATimeStamp() throws {
        try startDaemon()
        tsa.stop()
        let (c, session) = try capturingSession()
        let (photo, info) = try c.photo(in: session)
        XCTAssertEqual(info["timestamped"]?.boolValue, false)
        XCTAssertNil(info["timestamp_time"])
        let file = try stored(photo, "jpg")
        try ReferenceValidator.assertTrusted(file, anchors: try anchors(c))
        XCTAssertEqual(try ReferenceValidator.verdict(file: file, anchors: try anchors(c), clockOffset: "+730d").validationState, "Invalid")
    }

    private func assertStillTrustedTwoYearsOn(_ file: URL, anchors: [URL], line: UInt = #line) throws {
        let today = try ReferenceValidator.assertTrusted(file, anchors: anchors, line: line)
        XCTAssertTrue(today.success.contains("timeStamp.trusted"), "\(today.success)", line: line)
        let later = try ReferenceValidator.verdict(file: file, anchors: anchors, clockOffset: "+730d")
        XCTAssertEqual(later.validationState, "Trusted", "\(later.failureCodes)", line: line)
    }
}

final class TimeStampRequiredFlowTests: TimeStampFlowTestCase {
    override var policy: String { "required" }

    /// Capture waits for a TSA; a capture whose TSA fails mid-way stores nothing and disables
    /// capture (reason timestamp, BeginCapture refused) until the TSA is back.
    func testCaptureFollowsWhetherATSAAnswers() throws {
        try startDaemon()
        let (c, session) = try capturingSession()
        try waitUntilEnabled(c, session)
        XCTAssertEqual(try c.photo(in: session).info["timestamped"]?.boolValue, true)

        let port = tsa.port
        tsa.stop()
        let before = lensd.stateFiles.photos
        let mark = c.signals.count
        try c.call(session, "BeginCapture")
        let failed = try c.firstSignal("Failed", path: session, since: mark)
        XCTAssertEqual(failed.arguments.first?.stringValue, "\(Lens1.errorPrefix)Timestamp")
        XCTAssertTrue(failed.arguments.last?.stringValue?.contains(tsa.url) == true, "\(failed.arguments)")
        XCTAssertEqual(lensd.stateFiles.photos, before)
        XCTAssertEqual(lensd.stateFiles.temporaryFiles, [])

        let disabled = try c.firstSignal("CaptureDisabled", path: session, since: mark)
        XCTAssertEqual(disabled.arguments.first?.stringArrayValue, ["timestamp"])
        XCTAssertEqual(try c.disabledReasons(session), ["timestamp"])
        XCTAssertThrowsError(try c.call(session, "BeginCapture")) { XCTAssertEqual($0.shortName, "CaptureDisabled") }

        tsa = try LocalTSA(directory: tmp.file("tsa"), port: port)
        // The background check backs off to 8 s at most.
        lensd.loop.advance(by: .seconds(8))
        try c.firstSignal("CaptureEnabled", path: session, since: mark)
        XCTAssertEqual(try c.photo(in: session).info["timestamped"]?.boolValue, true)
    }

    /// A recording whose TSA stops answering before it is signed is kept, as the SDK keeps a video
    /// it cannot sign: VideoUnsigned saying why, listed and fetchable, playable, with no manifest.
    func testARecordingTheTSACannotStampIsKeptUnsigned() throws {
        try startDaemon()
        let (c, session) = try capturingSession()
        try waitUntilEnabled(c, session)
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStarted", path: session)
        try c.waitUntilRecorded(session, seconds: 0.1)
        tsa.stop()
        try c.call(session, "StopVideoCapture")
        let unsigned = try c.waitForSignal("VideoUnsigned", path: session, timeout: .seconds(60))
        let name = try XCTUnwrap(unsigned.arguments.first?.stringValue)
        let reason = unsigned.arguments.last?.vardictValue?["reason"]?.stringValue ?? ""
        XCTAssertTrue(reason.contains("time-stamp") && reason.contains(tsa.url), reason)
        XCTAssertFalse(c.signals.contains { $0.member == "VideoSigned" })
        let listed = try c.callManager("ListResults").first?.arrayValue?.compactMap { $0.vardictValue }
        XCTAssertEqual(listed?.map { $0["name"]?.stringValue }, [name])
        XCTAssertEqual(listed?.first?["signed"]?.boolValue, false)
        let fetched = tmp.file("unsigned.mp4")
        try c.fetchResult(name, in: session, to: fetched)
        XCTAssertGreaterThan(try FFprobeReport.read(fetched).frames, 0)
        XCTAssertEqual(try ReferenceValidator.verdict(file: fetched).exitStatus, 2, "c2pa-rs finds no manifest")
        XCTAssertEqual(lensd.stateFiles.temporaryFiles, [])
    }

    /// Started with the TSA down, lensd never lets a capture begin.
    func testStartedWithTheTSADownCaptureStaysDisabled() throws {
        tsa.stop()
        try startDaemon()
        let (c, session) = try capturingSession()
        XCTAssertEqual(try c.disabledReasons(session), ["timestamp"])
        // Once the first background check has failed, the details name the TSA that did not answer.
        try lensd.loop.run(until: { "\((try? c.get(session, "DisabledReasonDetails")) ?? .string(""))".contains(tsa.url) },
                           "the first TSA check")
        XCTAssertTrue("\(try c.get(session, "DisabledReasonDetails"))".contains("no TSA answers"))
        XCTAssertThrowsError(try c.call(session, "BeginCapture")) { XCTAssertEqual($0.shortName, "CaptureDisabled") }
    }

    private func waitUntilEnabled(_ c: HarnessClient, _ session: String) throws {
        guard try c.get(session, "CaptureEnabled").boolValue != true else { return }
        try c.waitForSignal("CaptureEnabled", path: session)
    }
}
