import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// lensd with a real RFC 3161 TSA (Tests/oracle/local_tsa.py, OpenSSL's `ts -reply`) named by
/// tsa-url, for what its clients say of time-stamps (lensctl, LensClient) and a SIGKILL of the
/// re-stamp queue (RestampTests). What lensd signals and what c2pa-python makes of the files run
/// in process (LensDaemonTests' TimeStampFlowTests).
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
