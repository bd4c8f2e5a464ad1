import Foundation
import LensBus
import LensClient
import LensCrypto
import LensTestSupport
import XCTest

/// lensd's outbox end to end: lensd as user lensd on the private bus, a real nginx (WebDAV PUT,
/// TLS from a test PKI) started by the test on 127.0.0.1, what nginx stored read back — for its
/// clients (lensctl, LensClient), the bus policy on OutboxState, the lensd process (libcurl loaded
/// on first use, a SIGKILL mid-upload). The outbox's flows run in process (LensDaemonTests'
/// OutboxUploadFlowTests).
class OutboxFlowTestCase: LensdTestCase {
    var nginx: NginxServer!

    /// Where lensd sends results; the TLS location by default.
    var uploadURL: String { nginx.url(tls: true) }

    override func prepare() throws {
        nginx = try NginxServer()
        try nginx.start()
    }

    override var daemonConfiguration: String {
        "upload-url = \(uploadURL)\nupload-ca = \(nginx.trustedCA.path)\nupload-retry-max = 2s\n"
    }

    override func tearDown() {
        super.tearDown()
        nginx = nil
    }

    /// BeginCapture → PhotoSigned; the photo's name and its info.
    func capturePhoto(_ c: TestClient, _ session: String) throws -> (name: String, info: [String: BusValue]) {
        let name = try XCTUnwrap(try c.call(session, "BeginCapture").first?.stringValue)
        let signed = try c.waitForSignal("PhotoSigned", path: session, timeout: 30) { $0.arguments.first?.stringValue == name }
        return (name, signed.arguments.last?.vardictValue ?? [:])
    }

    func outboxState(_ c: TestClient) throws -> [String: BusValue] {
        try XCTUnwrap(try c.get(TestClient.managerPath, "OutboxState", interface: TestClient.manager).vardictValue)
    }

    /// Polls OutboxState (a liveness deadline, not a sleep) until `predicate` holds.
    @discardableResult
    func waitForOutboxState(_ c: TestClient, timeout: TimeInterval = 30, _ what: String,
                            until predicate: ([String: BusValue]) -> Bool) throws -> [String: BusValue] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let state = try outboxState(c)
            if predicate(state) { return state }
            guard Date() < deadline else { throw TestToolError("\(what): OutboxState is still \(state)") }
            try c.drain(for: 0.1)
        }
    }

    func arrived(_ name: String, _ ext: String) -> URL { nginx.root.appendingPathComponent("dav/\(name).\(ext)") }

    func sha256(_ url: URL) throws -> String { Digest.hash(Array(try Data(contentsOf: url))).map { String(format: "%02x", $0) }.joined() }
}

final class OutboxFlowTests: OutboxFlowTestCase {
    /// lensctl outbox lists the caller's own uploads (root: everyone's); retry is for root or the owner.
    func testLensctlOutboxListsOwnUploadsAndRetriesThem() throws {
        nginx.stop()
        let photo = outbox.appendingPathComponent("member.jpg").path
        try lensctl.expect(0, ["capture", "-o", photo], as: TestUsers.member)
        let c = try client()
        try waitForOutboxState(c, "a failed attempt") { $0["last_error"]?.stringValue != "" }
        let name = try XCTUnwrap(try c.callManager("ListUploads").first?.arrayValue?.first?.vardictValue?["name"]?.stringValue)

        let listed = try lensctl.expect(0, ["outbox"], as: TestUsers.member).stdout
        XCTAssertTrue(listed.hasPrefix("outbox: 1 queued ("), listed)
        XCTAssertTrue(listed.contains("\n\(name)\tqueued\t"), listed)
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["outbox", "--json"], as: TestUsers.member).stdout, schema: "outbox")
        let other = try lensctl.expect(0, ["outbox"], as: TestUsers.secondMember).stdout
        XCTAssertFalse(other.contains(name), "another member does not see whose results wait: \(other)")
        XCTAssertTrue(try lensctl.expect(0, ["outbox"]).stdout.contains(name), "root sees everyone's")

        let refused = try lensctl.expect(1, ["outbox", "retry", name], as: TestUsers.secondMember)
        XCTAssertTrue(refused.stderr.contains("no upload of yours named \(name)"), refused.stderr)
        try lensctl.expect(2, ["outbox", "again"], as: TestUsers.member)

        try nginx.start()
        let retried = try lensctl.expect(0, ["outbox", "retry", "--json"], as: TestUsers.member).stdout
        try JSONSchemaCheck.assertValid(retried, schema: "outbox")
        try waitForOutboxState(c, "delivered") { $0["queued"]?.uint32Value == 0 }
        XCTAssertEqual(try Data(contentsOf: arrived(name, "jpg")), try Data(contentsOf: URL(fileURLWithPath: photo)))
        XCTAssertTrue(try daemonHasLoaded("libcurl.so"), "the outbox opened libcurl on first use")
    }

    /// LensClient: the outbox calls, and the upload signals as delegate callbacks.
    func testLensClientReadsTheOutboxAndHearsOfTheUpload() throws {
        nginx.stop()
        let delegate = RecordingDelegate()
        let camera = try LensCamera(bus: .address(bus.address), delegate: delegate, delegateQueue: delegate.queue)
        defer { camera.close() }
        try camera.startCaptureSession()
        let name = try camera.beginCapture()
        guard case .truepic(_, _, let info) = try delegate.wait(for: "didGenerateTruepic", { $0.kind == "PhotoSigned" }) else {
            return XCTFail("no photo")
        }
        XCTAssertEqual(info.upload, "queued")
        let c = try client()
        try waitForOutboxState(c, "a failed attempt") { $0["last_error"]?.stringValue != "" }
        // Every change of OutboxState is announced.
        try c.callManager("RetryUploads", [.string("")])
        try c.waitForSignal("PropertiesChanged", path: TestClient.managerPath) {
            $0.arguments.dropFirst().first?.vardictValue?["OutboxState"] != nil
        }
        let state = try camera.outboxState()
        XCTAssertEqual(state.queued, 1)
        XCTAssertFalse(state.lastError.isEmpty)
        XCTAssertEqual(try camera.uploads().map(\.name), [name])
        XCTAssertEqual(try camera.uploads().first?.state, .queued)

        try nginx.start()
        XCTAssertEqual(try camera.retryUploads(name: name), 1)
        guard case .uploaded(let uploaded, let upload) = try delegate.wait(for: "didUploadResult", { $0.kind == "ResultUploaded" }) else {
            return XCTFail("no upload")
        }
        XCTAssertEqual(uploaded, name)
        XCTAssertEqual(upload.sha256, info.sha256)
        XCTAssertEqual(upload.url, "https://127.0.0.1:\(nginx.httpsPort)/dav/\(name).jpg")
        XCTAssertEqual(try camera.uploads(), [])
        XCTAssertEqual(delegate.offQueue, 0)
    }

    /// OutboxState is nothing personal: any member may read it; the policy keeps others out.
    func testGroupMembersReadOutboxStateAndOutsidersCannot() throws {
        let get = "get:/org/lensd/Lens1:org.lensd.Lens1.Manager:OutboxState"
        let member = try peer([get], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0)
        XCTAssertTrue(member.lines.contains { $0.hasPrefix("reply \(get)") && $0.contains("queued") }, "\(member.lines)")
        let outsider = try peer([get], as: TestUsers.outsider)
        _ = try outsider.finish()
        XCTAssertTrue(outsider.lines.contains { $0.hasPrefix("error \(get)") }, "\(outsider.lines)")
    }
}

/// lensd SIGKILLed while it sends a photo (slowed by a throttling relay in front of nginx): the
/// restarted lensd sends it again whole, and nginx keeps exactly one file for each photo.
final class OutboxKillTests: OutboxFlowTestCase {
    private var relay: ServerProcess!
    private var relayPort = 0

    override func prepare() throws {
        try super.prepare()
        relayPort = try LoopbackPort.free()
        relay = ServerProcess([try TestTools.python(), TestTools.oracleDir.appendingPathComponent("throttle_relay.py").path,
                               "\(relayPort)", "\(nginx.httpPort)", "4000"], logPath: tmp.file("relay.log").path)
        let port = relayPort
        try relay.start { LoopbackPort.isListening(port) }
    }

    override var uploadURL: String { "http://127.0.0.1:\(relayPort)/dav/{name}.{ext}" }

    override func tearDown() {
        super.tearDown()
        relay = nil
    }

    func testLensdKilledMidUploadDeliversTheResultWholeAfterARestart() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let photo = try capturePhoto(c, session)
        let size = Int(photo.info["size"]?.uint64Value ?? 0)
        XCTAssertGreaterThan(size, 10_000, "large enough to take seconds through the relay")
        let deadline = Date().addingTimeInterval(30)
        while nginx.partialUploadBytes == 0 {
            guard Date() < deadline else { return XCTFail("the upload never reached nginx: \(nginx.errorLog)") }
            usleep(20_000)
        }
        // Capture does not wait for the upload: another photo is signed while it crawls on.
        let second = try capturePhoto(c, session)
        XCTAssertEqual(second.info["upload"]?.stringValue, "queued")
        XCTAssertEqual(nginx.storedFiles(), [], "the first upload is still under way")
        daemon.stop(signal: SIGKILL)
        XCTAssertEqual(nginx.storedFiles(), [])

        try restartDaemon()
        let restarted = try client()
        let deadline2 = Date().addingTimeInterval(60)
        while nginx.storedFiles().count < 2 {
            guard Date() < deadline2 else { return XCTFail("not delivered after the restart: \(daemon.log)") }
            try restarted.drain(for: 0.2)
        }
        for sent in [photo, second] {
            XCTAssertEqual(try sha256(arrived(sent.name, "jpg")), sent.info["sha256"]?.stringValue)
        }
        XCTAssertEqual(nginx.storedFiles().count, 2)
        try waitForOutboxState(restarted, "an empty outbox") { $0["queued"]?.uint32Value == 0 }
        XCTAssertTrue(temporaryFiles().isEmpty, "\(temporaryFiles())")
    }
}
