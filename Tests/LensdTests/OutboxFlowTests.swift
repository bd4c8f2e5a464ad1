import Foundation
import LensBus
import LensClient
import LensCrypto
import LensTestSupport
import XCTest

/// lensd's outbox end to end: lensd as user lensd on the private bus, a real nginx (WebDAV PUT,
/// TLS from a test PKI) started by the test on 127.0.0.1, what nginx stored read back.
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

    /// nginx stopped, then two photos: both wait in the outbox after a failed attempt.
    func twoPhotosQueuedWithNginxStopped(_ c: TestClient) throws -> (session: String, names: [String], state: [String: BusValue]) {
        nginx.stop()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let names = try (0..<2).map { _ in try capturePhoto(c, session).name }
        let state = try waitForOutboxState(c, "both queued after a failed attempt") {
            $0["queued"]?.uint32Value == 2 && !($0["last_error"]?.stringValue ?? "").isEmpty
        }
        return (session, names, state)
    }

    func arrived(_ name: String, _ ext: String) -> URL { nginx.root.appendingPathComponent("dav/\(name).\(ext)") }

    func sha256(_ url: URL) throws -> String { Digest.hash(Array(try Data(contentsOf: url))).map { String(format: "%02x", $0) }.joined() }
}

final class OutboxFlowTests: OutboxFlowTestCase {
    func testPhotosAndAVideoArriveByteIdenticalTrustedAndOnlyTheOwnerHearsOfIt() throws {
        let bystander = try peer(["open", "listen:20"], as: TestUsers.member)
        try bystander.waitForLine("listening")
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        var announced: [String: String] = [:]  // name → sha256 from PhotoSigned/VideoSigned
        for _ in 0..<2 {
            let photo = try capturePhoto(c, session)
            XCTAssertEqual(photo.info["upload"]?.stringValue, "queued")
            announced[photo.name] = photo.info["sha256"]?.stringValue
        }
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitUntilRecorded(session, seconds: 1.5)
        try c.call(session, "StopVideoCapture")
        let video = try c.waitForSignal("VideoSigned", path: session, timeout: 60)
        let videoName = try XCTUnwrap(video.arguments.first?.stringValue)
        XCTAssertEqual(video.arguments.last?.vardictValue?["upload"]?.stringValue, "queued")

        let anchor = try c.trustAnchorFile(in: tmp)
        var uploaded: [String] = []
        for _ in 0..<3 {
            let signal = try c.waitForSignal("ResultUploaded", path: session, timeout: 60)
            let name = try XCTUnwrap(signal.arguments.first?.stringValue)
            let info = try XCTUnwrap(signal.arguments.last?.vardictValue)
            let ext = name == videoName ? "mp4" : "jpg"
            let file = arrived(name, ext)
            XCTAssertEqual(info["url"]?.stringValue, "https://127.0.0.1:\(nginx.httpsPort)/dav/\(name).\(ext)")
            XCTAssertEqual(info["status"]?.uint32Value, 201)
            XCTAssertEqual(info["sha256"]?.stringValue, try sha256(file), "byte-identical to what was announced")
            let stored = daemon.stateDirectory.appendingPathComponent("results/0/\(name).\(ext)")
            XCTAssertEqual(try Data(contentsOf: file), try Data(contentsOf: stored))
            if let sha = announced[name] { XCTAssertEqual(info["sha256"]?.stringValue, sha) }
            try ReferenceValidator.assertTrusted(file, anchors: [anchor])
            uploaded.append(name)
        }
        XCTAssertEqual(Set(uploaded), Set(announced.keys).union([videoName]))
        try waitForOutboxState(c, "an empty outbox") { $0["queued"]?.uint32Value == 0 }
        XCTAssertEqual(try outboxState(c)["last_error"]?.stringValue, "")

        XCTAssertEqual(try bystander.finish(), 0)
        XCTAssertFalse(bystander.lines.contains { $0.contains("ResultUploaded") }, "\(bystander.lines)")
    }

    func testCapturesWhileNginxIsStoppedAreQueuedAndDeliveredOnceItStarts() throws {
        let c = try client()
        let (session, names, state) = try twoPhotosQueuedWithNginxStopped(c)
        XCTAssertTrue(state["last_error"]?.stringValue?.contains("onnect") ?? false, "\(state)")
        XCTAssertGreaterThan(state["bytes"]?.uint64Value ?? 0, 0)
        let listed = try XCTUnwrap(try c.callManager("ListUploads").first?.arrayValue).compactMap(\.vardictValue)
        XCTAssertEqual(Set(listed.compactMap { $0["name"]?.stringValue }), Set(names))
        XCTAssertTrue(listed.allSatisfy { $0["state"]?.stringValue == "queued" }, "\(listed)")

        try nginx.start()
        let delivered = try (0..<2).map { _ in try c.waitForSignal("ResultUploaded", path: session, timeout: 30) }
        XCTAssertEqual(Set(delivered.compactMap { $0.arguments.first?.stringValue }), Set(names))
        for name in names {
            XCTAssertEqual(try sha256(arrived(name, "jpg")),
                           try sha256(daemon.stateDirectory.appendingPathComponent("results/0/\(name).jpg")))
        }
        try waitForOutboxState(c, "an empty outbox") { $0["queued"]?.uint32Value == 0 && $0["last_error"]?.stringValue == "" }
        XCTAssertTrue(try daemonHasLoaded("libcurl.so"), "the outbox opened libcurl on first use")
    }

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

/// A server that refuses the file for good: the owner is told, the photo stays, nothing is retried.
final class OutboxRefusalTests: OutboxFlowTestCase {
    override var uploadURL: String { nginx.url(tls: false, location: "small") }

    func testA413IsReportedToTheOwnerKeptLocallyAndNotRetried() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let photo = try capturePhoto(c, session)
        let failed = try c.waitForSignal("UploadFailed", path: session, timeout: 30)
        XCTAssertEqual(failed.arguments.map(\.stringValue), [photo.name, "too_large", failed.arguments[2].stringValue])
        XCTAssertTrue(failed.arguments[2].stringValue?.contains("413") ?? false, "\(failed.arguments)")
        XCTAssertNoThrow(try c.call(session, "FetchResult", [.string(photo.name)]), "kept locally")
        let listed = try XCTUnwrap(try c.callManager("ListUploads").first?.arrayValue?.first?.vardictValue)
        XCTAssertEqual(listed["state"]?.stringValue, "failed")
        XCTAssertEqual(listed["attempts"]?.uint32Value, 1)
        XCTAssertEqual(try outboxState(c)["queued"]?.uint32Value, 0)
        XCTAssertEqual(try outboxState(c)["next_attempt"]?.uint64Value, 0, "no retry is scheduled")
        XCTAssertEqual(nginx.puts, ["/small/\(photo.name).jpg 413"])

        // RetryUploads asks again (and answers NotFound for a name that is not waiting).
        XCTAssertEqual(try c.callManager("RetryUploads", [.string(photo.name)]).first?.uint32Value, 1)
        _ = try c.waitForSignal("UploadFailed", path: session, timeout: 30)
        XCTAssertEqual(nginx.puts.count, 2)
        XCTAssertThrowsError(try c.callManager("RetryUploads", [.string(UUID().uuidString.lowercased())])) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.NotFound")
        }
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

/// The state directory on a small tmpfs that the test fills to the last byte: capture is disabled
/// for `storage` as without an outbox, and the queue stays intact and is still delivered.
final class OutboxDiskFullTests: OutboxFlowTestCase {
    private var mounted = false
    private var state: URL { tmp.file("state") }

    override var daemonArguments: [String] { super.daemonArguments + ["--min-free-bytes", "4M"] }

    override func prepare() throws {
        try super.prepare()
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let r = try runProcess(["mount", "-t", "tmpfs", "-o", "size=24m,mode=0700", "tmpfs", state.path])
        guard r.status == 0 else { throw TestToolError("mount tmpfs: \(String(decoding: r.stderr, as: UTF8.self))") }
        mounted = true
    }

    override func tearDown() {
        daemon?.stop(signal: SIGKILL)
        if mounted { _ = try? runProcess(["umount", state.path]) }
        super.tearDown()
    }

    func testAFullStateDirectoryDisablesCaptureAndKeepsTheQueue() throws {
        let c = try client()
        let (session, names, _) = try twoPhotosQueuedWithNginxStopped(c)

        let fill = try runProcess(["dd", "if=/dev/zero", "of=\(state.path)/filler", "bs=1M"])
        XCTAssertNotEqual(fill.status, 0, "dd stops at ENOSPC")
        XCTAssertTrue(String(decoding: fill.stderr, as: UTF8.self).contains("No space left"))
        let disabled = try c.waitForSignal("CaptureDisabled", path: session, timeout: 30)
        XCTAssertEqual(disabled.arguments.first?.stringArrayValue, ["storage"])
        XCTAssertThrowsError(try c.call(session, "BeginCapture")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.CaptureDisabled")
        }
        let records = try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("outbox").path)
        XCTAssertEqual(Set(records), Set(names.map { "\($0).json" }))
        XCTAssertEqual(try outboxState(c)["queued"]?.uint32Value, 2)

        // Sending needs no space: the queue drains while the disk is still full.
        try nginx.start()
        let delivered = try (0..<2).map { _ in try c.waitForSignal("ResultUploaded", path: session, timeout: 30) }
        XCTAssertEqual(Set(delivered.compactMap { $0.arguments.first?.stringValue }), Set(names))
        for name in names {
            XCTAssertEqual(try sha256(arrived(name, "jpg")), try sha256(state.appendingPathComponent("results/0/\(name).jpg")))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("outbox").path), [])
    }
}

/// upload-keep false: the local copy goes once the server confirmed it, and only then.
final class OutboxNoKeepTests: OutboxFlowTestCase {
    override var daemonConfiguration: String { super.daemonConfiguration + "upload-keep = false\n" }

    func testTheLocalCopyIsRemovedAfterAConfirmedDelivery() throws {
        let c = try client()
        let (session, names, _) = try twoPhotosQueuedWithNginxStopped(c)
        for name in names { XCTAssertNoThrow(try c.call(session, "FetchResult", [.string(name)]), "kept until delivered") }
        try nginx.start()
        for _ in names { try c.waitForSignal("ResultUploaded", path: session, timeout: 30) }
        for name in names {
            XCTAssertTrue(FileManager.default.fileExists(atPath: arrived(name, "jpg").path))
            XCTAssertThrowsError(try c.call(session, "FetchResult", [.string(name)])) {
                XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.NotFound")
            }
        }
        XCTAssertEqual(storedPhotos(), [])
    }
}

/// upload-auth-file: read once at start; its token goes with every upload; a file anyone but root
/// could write stops lensd at start-up with a line that says so.
final class OutboxCredentialTests: OutboxFlowTestCase {
    private var server: ServerProcess!
    private var port = 0
    private var received: URL { tmp.file("received") }
    private var authFile: URL { tmp.file("upload-token") }

    override func prepare() throws {
        try super.prepare()
        port = try LoopbackPort.free()
        try FileManager.default.createDirectory(at: received, withIntermediateDirectories: true)
        server = ServerProcess([try TestTools.python(), TestTools.oracleDir.appendingPathComponent("scripted_http.py").path,
                                "\(port)", received.path, "201"], logPath: tmp.file("scripted.log").path)
        let port = port
        try server.start { LoopbackPort.isListening(port) }
        // Root-owned (the test runs as root) and readable by lensd, like root:lensd 0640.
        FileManager.default.createFile(atPath: authFile.path, contents: Data("camera-7:s3cret\n".utf8),
                                       attributes: [.posixPermissions: 0o644])
    }

    override var uploadURL: String { "http://127.0.0.1:\(port)/up/{name}.{ext}" }
    override var daemonConfiguration: String { super.daemonConfiguration + "upload-auth-file = \(authFile.path)\n" }

    override func tearDown() {
        super.tearDown()
        server = nil
    }

    func testTheCredentialGoesWithTheUploadAndAnUnsafeFileStopsLensd() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let photo = try capturePhoto(c, session)
        try c.waitForSignal("ResultUploaded", path: session, timeout: 30)
        let log = try String(contentsOf: received.appendingPathComponent("requests.log"), encoding: .utf8)
        XCTAssertTrue(log.contains(" Basic \(Data("camera-7:s3cret".utf8).base64EncodedString()) "), log)
        XCTAssertTrue(log.hasPrefix("PUT /up/\(photo.name).jpg 201 "), log)

        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: authFile.path)
        XCTAssertThrowsError(try restartDaemon()) {
            XCTAssertTrue("\($0)".contains("upload-auth-file \(authFile.path) must be owned by root and writable only by root"), "\($0)")
        }
    }
}
