import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// lensd with a real RFC 3161 TSA (Tests/oracle/local_tsa.py, OpenSSL's `ts -reply`) named by
/// tsa-url: what PhotoSigned/VideoSigned say, and what c2pa-python makes of the files, today and
/// two years on, when the device certificate has long expired.
class TimeStampTestCase: LensdTestCase {
    var tsa: LocalTSA!
    var policy: String { "when-online" }

    override func prepare() throws {
        tsa = try LocalTSA(directory: tmp.file("tsa"))
    }

    override func tearDown() {
        super.tearDown()
        tsa = nil
    }

    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "optional", "--gpsd", "none", "--tsa-url", tsa.url,
         "--tsa-trust-anchor", tsa.root.path, "--tsa-timeout", "2", "--timestamp", policy]
    }

    func anchors(_ c: TestClient) throws -> [URL] { [try c.trustAnchorFile(in: tmp), tsa.root] }

    func stored(_ name: String, _ ext: String) throws -> URL {
        try XCTUnwrap((ext == "jpg" ? storedPhotos() : storedVideos()).first { $0.lastPathComponent == "\(name).\(ext)" })
    }
}

final class TimeStampWhenOnlineTests: TimeStampTestCase {
    func testOnlinePhotosAndVideosAreStampedAndStayTrustedAfterTheCertificateExpires() throws {
        let (c, session) = try capturingSession()
        let (photo, info) = try self.photo(c, session)
        XCTAssertEqual(info["timestamped"]?.boolValue, true)
        let time = Double(try XCTUnwrap(info["timestamp_time"]?.uint64Value))
        XCTAssertEqual(time, Date().timeIntervalSince1970, accuracy: 60)
        try assertStillTrustedTwoYearsOn(try stored(photo, "jpg"), anchors: try anchors(c))

        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStarted", path: session)
        // A recording stopped before its first frame is written has nothing to sign.
        try c.waitUntilRecorded(session, seconds: 0.1)
        try c.call(session, "StopVideoCapture")
        let video = try c.waitForSignal("VideoSigned", path: session, timeout: 60)
        let videoInfo = try XCTUnwrap(video.arguments.last?.vardictValue)
        XCTAssertEqual(videoInfo["timestamped"]?.boolValue, true)
        XCTAssertNotNil(videoInfo["timestamp_time"]?.uint64Value)
        try assertStillTrustedTwoYearsOn(try stored(try XCTUnwrap(video.arguments.first?.stringValue), "mp4"), anchors: try anchors(c))
    }

    /// `lensctl capture` says so too: JSON (schema) and text.
    func testLensctlCaptureSaysWhenThePhotoWasTimeStamped() throws {
        let photo = tmp.file("photo.jpg").path
        let json = try lensctl.expect(0, ["capture", "-o", photo, "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "capture")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object["timestamped"] as? Bool, true)
        XCTAssertNotNil(object["timestamp_time"] as? String)
        let text = try lensctl.expect(0, ["capture", "-o", tmp.file("again.jpg").path]).stdout
        XCTAssertTrue(text.contains("time:     time-stamped 20"), text)
    }

    /// LensClient hands the time-stamp to the app with the signed photo.
    func testLensClientSaysWhenThePhotoWasTimeStamped() throws {
        let delegate = RecordingDelegate()
        let camera = try LensCamera(bus: .address(bus.address), delegate: delegate, delegateQueue: delegate.queue)
        defer { camera.close() }
        try camera.startCaptureSession()
        let name = try camera.beginCapture()
        guard case .truepic(_, _, let info) = try delegate.wait(for: "didGenerateTruepic", { call in
            if case .truepic(name, _, _) = call { true } else { false }
        }) else { return XCTFail("not a truepic") }
        XCTAssertEqual(info.timestamped, true)
        XCTAssertEqual(try XCTUnwrap(info.timestampTime).timeIntervalSinceNow, 0, accuracy: 60)
    }

    /// The TSA down: the photo is signed all the same, says so, and turns Invalid with the certificate.
    func testWithTheTSADownAPhotoIsSignedWithoutATimeStamp() throws {
        tsa.stop()
        let (c, session) = try capturingSession()
        let (photo, info) = try self.photo(c, session)
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

final class TimeStampRequiredTests: TimeStampTestCase {
    override var policy: String { "required" }

    /// Capture waits for a TSA; a capture whose TSA fails mid-way stores nothing and disables
    /// capture (reason timestamp, BeginCapture refused) until the TSA is back.
    func testCaptureFollowsWhetherATSAAnswers() throws {
        let (c, session) = try capturingSession()
        try waitUntilEnabled(c, session)
        XCTAssertEqual(try photo(c, session).info["timestamped"]?.boolValue, true)

        let port = tsa.port
        tsa.stop()
        let before = storedPhotos()
        _ = try c.call(session, "BeginCapture")
        let failed = try c.waitForSignal("Failed", path: session, timeout: 30)
        XCTAssertEqual(failed.arguments.first?.stringValue, "org.lensd.Lens1.Error.Timestamp")
        XCTAssertTrue(failed.arguments.last?.stringValue?.contains(tsa.url) == true, "\(failed.arguments)")
        XCTAssertEqual(storedPhotos(), before)
        XCTAssertTrue(temporaryFiles().isEmpty, "\(temporaryFiles())")

        let disabled = try c.waitForSignal("CaptureDisabled", path: session)
        XCTAssertEqual(disabled.arguments.first?.stringArrayValue, ["timestamp"])
        XCTAssertEqual(try c.get(session, "DisabledReasons").stringArrayValue, ["timestamp"])
        XCTAssertThrowsError(try c.call(session, "BeginCapture")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.CaptureDisabled")
        }

        tsa = try LocalTSA(directory: tmp.file("tsa"), port: port)
        // The background check backs off to 8 s at most: well within the bound.
        try c.waitForSignal("CaptureEnabled", path: session, timeout: 30)
        XCTAssertEqual(try photo(c, session).info["timestamped"]?.boolValue, true)
    }

    /// A recording whose TSA stops answering before it is signed is kept, as the SDK keeps a video
    /// it cannot sign: VideoUnsigned saying why, listed and fetchable, playable, with no manifest.
    func testARecordingTheTSACannotStampIsKeptUnsigned() throws {
        let (c, session) = try capturingSession()
        try waitUntilEnabled(c, session)
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStarted", path: session)
        tsa.stop()
        try c.call(session, "StopVideoCapture")
        let unsigned = try c.waitForSignal("VideoUnsigned", path: session, timeout: 60)
        let name = try XCTUnwrap(unsigned.arguments.first?.stringValue)
        let reason = unsigned.arguments.last?.vardictValue?["reason"]?.stringValue ?? ""
        XCTAssertTrue(reason.contains("time-stamp") && reason.contains(tsa.url), reason)
        XCTAssertFalse(c.signals.contains { $0.member == "VideoSigned" })
        let listed = try c.callManager("ListResults").first?.arrayValue?.compactMap { $0.vardictValue }
        XCTAssertEqual(listed?.map { $0["name"]?.stringValue }, [name])
        XCTAssertEqual(listed?.first?["signed"]?.boolValue, false)
        let fetched = tmp.file("unsigned.mp4")
        let fd = try XCTUnwrap(c.call(session, "FetchResult", [.string(name)]).first?.fdValue)
        try Data(FileHandle(fileDescriptor: fd, closeOnDealloc: true).readToEnd() ?? Data()).write(to: fetched)
        XCTAssertGreaterThan(try FFprobeReport.read(fetched).frames, 0)
        XCTAssertEqual(try ReferenceValidator.verdict(file: fetched).exitStatus, 2, "c2pa-rs finds no manifest")
        XCTAssertTrue(temporaryFiles().isEmpty, "\(temporaryFiles())")
    }

    /// Started with the TSA down, lensd never lets a capture begin.
    func testStartedWithTheTSADownCaptureStaysDisabled() throws {
        tsa.stop()
        try restartDaemon()
        let (c, session) = try capturingSession()
        XCTAssertEqual(try c.get(session, "DisabledReasons").stringArrayValue, ["timestamp"])
        let details = "\(try c.get(session, "DisabledReasonDetails"))"
        XCTAssertTrue(details.contains("no TSA answers") && details.contains(tsa.url), details)
        XCTAssertThrowsError(try c.call(session, "BeginCapture")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.CaptureDisabled")
        }
    }

    private func waitUntilEnabled(_ c: TestClient, _ session: String) throws {
        guard try c.get(session, "CaptureEnabled").boolValue != true else { return }
        try c.waitForSignal("CaptureEnabled", path: session, timeout: 30)
    }
}

extension TimeStampTestCase {
    /// A session of a new client, holding the camera.
    func capturingSession() throws -> (client: TestClient, session: String) {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        return (c, session)
    }

    /// BeginCapture, then its name and PhotoSigned's info.
    func photo(_ c: TestClient, _ session: String) throws -> (name: String, info: [String: BusValue]) {
        let name = try XCTUnwrap(try c.call(session, "BeginCapture").first?.stringValue)
        return (name, try signedInfo(c, "PhotoSigned", session, name))
    }

    func signedInfo(_ c: TestClient, _ member: String, _ session: String, _ name: String) throws -> [String: BusValue] {
        let event = try c.waitForSignal(member, path: session, timeout: 30) { $0.arguments.first?.stringValue == name }
        return try XCTUnwrap(event.arguments.last?.vardictValue)
    }
}
