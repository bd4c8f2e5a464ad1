import Foundation
import LensBus
import LensContract
import LensCrypto
import LensTestSupport
import XCTest

/// lensd's outbox in process: a real nginx (WebDAV PUT, TLS from a test PKI) started by the test
/// on 127.0.0.1, what nginx stored read back. The outbox sends and retries on its own thread, in
/// real time (upload-retry-max 2 s here). lensctl, LensClient, the bus policy on OutboxState
/// and a SIGKILL mid-upload stay on the bus (OutboxFlowTests, OutboxKillTests).
class OutboxUploadFlowTestCase: XCTestCase {
    var tmp: TemporaryDirectory!
    var nginx: NginxServer!
    var lensd: DaemonHarness!
    /// What a test mounted inside tmp (a SmallDisk): released once lensd is down, before tmp goes.
    var mountedInTmp: SmallDisk?

    /// Where lensd sends results; the TLS location by default.
    var uploadURL: String { nginx.url(tls: true) }
    /// lensd.conf, as the bus tests write it.
    var configuration: String { "upload-url = \(uploadURL)\nupload-ca = \(nginx.trustedCA.path)\nupload-retry-max = 2s\n" }
    var arguments: [String] { [] }

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-outbox-flow")
        nginx = try NginxServer()
        try nginx.start()
    }

    override func tearDownWithError() throws {
        // XCTest keeps every test case object to the end: what they hold goes now.
        defer {
            nginx = nil
            mountedInTmp = nil
            tmp = nil
        }
        try lensd?.shutDown()
        lensd = nil
    }

    func startDaemon() throws {
        let file = tmp.file("lensd.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        lensd = try DaemonHarness(["--config", file.path] + arguments)
    }

    func outboxState(_ c: HarnessClient) throws -> [String: BusValue] {
        try XCTUnwrap(try c.managerProperty("OutboxState").vardictValue)
    }

    /// Runs the loop (the outbox posts what becomes of each upload) until `predicate` holds for
    /// OutboxState.
    @discardableResult
    func waitForOutboxState(_ c: HarnessClient, timeout: Duration = .seconds(30), _ what: String,
                            until predicate: @escaping ([String: BusValue]) -> Bool) throws -> [String: BusValue] {
        var state: [String: BusValue] = [:]
        try lensd.loop.run(until: {
            state = (try? outboxState(c)) ?? [:]
            return predicate(state)
        }, timeout: timeout, "\(what) (OutboxState is \(state))")
        return state
    }

    /// nginx stopped, then two photos: both wait in the outbox after a failed attempt.
    func twoPhotosQueuedWithNginxStopped(_ c: HarnessClient) throws -> (session: String, names: [String], state: [String: BusValue]) {
        nginx.stop()
        let session = try c.claimedSession()
        let names = try (0..<2).map { _ in try c.photo(in: session).name }
        let state = try waitForOutboxState(c, "both queued after a failed attempt") {
            $0["queued"]?.uint32Value == 2 && !($0["last_error"]?.stringValue ?? "").isEmpty
        }
        return (session, names, state)
    }

    func arrived(_ name: String, _ ext: String) -> URL { nginx.root.appendingPathComponent("dav/\(name).\(ext)") }

    /// Root's stored result.
    func stored(_ name: String, _ ext: String) -> URL { lensd.stateFiles.results.appendingPathComponent("0/\(name).\(ext)") }

    func sha256(_ url: URL) throws -> String { Digest.hash(Array(try Data(contentsOf: url))).map { String(format: "%02x", $0) }.joined() }
}

final class OutboxUploadFlowTests: OutboxUploadFlowTestCase {
    func testPhotosAndAVideoArriveByteIdenticalTrustedAndOnlyTheOwnerHearsOfIt() throws {
        try startDaemon()
        let bystander = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        _ = try bystander.openSession()
        let c = lensd.client()
        let session = try c.claimedSession()
        let mark = c.signals.count
        var announced: [String: String] = [:]  // name → sha256 from PhotoSigned/VideoSigned
        for _ in 0..<2 {
            let photo = try c.photo(in: session)
            XCTAssertEqual(photo.info["upload"]?.stringValue, "queued")
            announced[photo.name] = photo.info["sha256"]?.stringValue
        }
        let (videoName, videoInfo) = try c.recordVideo(in: session, seconds: 1.5)
        XCTAssertEqual(videoInfo["upload"]?.stringValue, "queued")

        let anchor = try c.trustAnchorFile(in: tmp)
        var uploaded: [String] = []
        // The photos' may come while the video records.
        for signal in try c.signals("ResultUploaded", path: session, since: mark, count: 3, timeout: .seconds(60)) {
            let name = try XCTUnwrap(signal.arguments.first?.stringValue)
            let info = try XCTUnwrap(signal.arguments.last?.vardictValue)
            let ext = name == videoName ? "mp4" : "jpg"
            let file = arrived(name, ext)
            XCTAssertEqual(info["url"]?.stringValue, "https://127.0.0.1:\(nginx.httpsPort)/dav/\(name).\(ext)")
            XCTAssertEqual(info["status"]?.uint32Value, 201)
            XCTAssertEqual(info["sha256"]?.stringValue, try sha256(file), "byte-identical to what was announced")
            XCTAssertEqual(try Data(contentsOf: file), try Data(contentsOf: stored(name, ext)))
            if let sha = announced[name] { XCTAssertEqual(info["sha256"]?.stringValue, sha) }
            try ReferenceValidator.assertTrusted(file, anchors: [anchor])
            uploaded.append(name)
        }
        XCTAssertEqual(Set(uploaded), Set(announced.keys).union([videoName]))
        try waitForOutboxState(c, "an empty outbox") { $0["queued"]?.uint32Value == 0 }
        XCTAssertEqual(try outboxState(c)["last_error"]?.stringValue, "")
        // Sent to the owner alone: another member's connection received none of it.
        XCTAssertFalse(bystander.signals.contains { $0.member == "ResultUploaded" }, "\(bystander.signals)")
    }

    func testCapturesWhileNginxIsStoppedAreQueuedAndDeliveredOnceItStarts() throws {
        try startDaemon()
        let c = lensd.client()
        let (session, names, state) = try twoPhotosQueuedWithNginxStopped(c)
        XCTAssertTrue(state["last_error"]?.stringValue?.contains("onnect") ?? false, "\(state)")
        XCTAssertGreaterThan(state["bytes"]?.uint64Value ?? 0, 0)
        let listed = try XCTUnwrap(try c.callManager("ListUploads").first?.arrayValue).compactMap(\.vardictValue)
        XCTAssertEqual(Set(listed.compactMap { $0["name"]?.stringValue }), Set(names))
        XCTAssertTrue(listed.allSatisfy { $0["state"]?.stringValue == "queued" }, "\(listed)")

        try nginx.start()
        let delivered = try (0..<2).map { _ in try c.waitForSignal("ResultUploaded", path: session) }
        XCTAssertEqual(Set(delivered.compactMap { $0.arguments.first?.stringValue }), Set(names))
        for name in names {
            XCTAssertEqual(try sha256(arrived(name, "jpg")), try sha256(stored(name, "jpg")))
        }
        try waitForOutboxState(c, "an empty outbox") { $0["queued"]?.uint32Value == 0 && $0["last_error"]?.stringValue == "" }
    }
}

/// A server that refuses the file for good: the owner is told, the photo stays, nothing is retried.
final class OutboxRefusalFlowTests: OutboxUploadFlowTestCase {
    override var uploadURL: String { nginx.url(tls: false, location: "small") }

    func testA413IsReportedToTheOwnerKeptLocallyAndNotRetried() throws {
        try startDaemon()
        let c = lensd.client()
        let session = try c.claimedSession()
        let photo = try c.photo(in: session)
        let failed = try c.waitForSignal("UploadFailed", path: session)
        XCTAssertEqual(failed.arguments.map(\.stringValue), [photo.name, "too_large", failed.arguments[2].stringValue])
        XCTAssertTrue(failed.arguments[2].stringValue?.contains("413") ?? false, "\(failed.arguments)")
        XCTAssertNoThrow(try c.call(session, "FetchResult", [.string(photo.name)]).first?.fdValue.map { close($0) }, "kept locally")
        let listed = try XCTUnwrap(try c.callManager("ListUploads").first?.arrayValue?.first?.vardictValue)
        XCTAssertEqual(listed["state"]?.stringValue, "failed")
        XCTAssertEqual(listed["attempts"]?.uint32Value, 1)
        XCTAssertEqual(try outboxState(c)["queued"]?.uint32Value, 0)
        XCTAssertEqual(try outboxState(c)["next_attempt"]?.uint64Value, 0, "no retry is scheduled")
        XCTAssertEqual(nginx.puts(count: 1), ["/small/\(photo.name).jpg 413"])

        // RetryUploads asks again (and answers NotFound for a name that is not waiting).
        XCTAssertEqual(try c.callManager("RetryUploads", [.string(photo.name)]).first?.uint32Value, 1)
        try c.waitForSignal("UploadFailed", path: session)
        XCTAssertEqual(nginx.puts(count: 2).count, 2)
        XCTAssertThrowsError(try c.callManager("RetryUploads", [.string(UUID().uuidString.lowercased())])) {
            XCTAssertEqual($0.shortName, "NotFound")
        }
    }
}

/// The state directory on a small tmpfs that the test fills to the last byte: capture is disabled
/// for `storage` as without an outbox, and the queue stays intact and is still delivered.
final class OutboxDiskFullFlowTests: OutboxUploadFlowTestCase {
    private var state: URL { tmp.file("state") }

    override var arguments: [String] { ["--state-dir", state.path, "--min-free-bytes", "4M"] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        mountedInTmp = try SmallDisk(at: state, size: "24m")
    }

    func testAFullStateDirectoryDisablesCaptureAndKeepsTheQueue() throws {
        try startDaemon()
        let c = lensd.client()
        let (session, names, _) = try twoPhotosQueuedWithNginxStopped(c)

        let fill = try runProcess(["dd", "if=/dev/zero", "of=\(state.path)/filler", "bs=1M"])
        XCTAssertNotEqual(fill.status, 0, "dd stops at ENOSPC")
        XCTAssertTrue(String(decoding: fill.stderr, as: UTF8.self).contains("No space left"))
        // Free space is looked at every 5 s.
        lensd.loop.advance(by: .seconds(5))
        let disabled = try c.waitForSignal("CaptureDisabled", path: session)
        XCTAssertEqual(disabled.arguments.first?.stringArrayValue, ["storage"])
        XCTAssertThrowsError(try c.call(session, "BeginCapture")) { XCTAssertEqual($0.shortName, "CaptureDisabled") }
        let records = try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("outbox").path)
        XCTAssertEqual(Set(records), Set(names.map { "\($0).json" }))
        XCTAssertEqual(try outboxState(c)["queued"]?.uint32Value, 2)

        // Sending needs no space: the queue drains while the disk is still full.
        try nginx.start()
        let delivered = try (0..<2).map { _ in try c.waitForSignal("ResultUploaded", path: session) }
        XCTAssertEqual(Set(delivered.compactMap { $0.arguments.first?.stringValue }), Set(names))
        for name in names {
            XCTAssertEqual(try sha256(arrived(name, "jpg")), try sha256(stored(name, "jpg")))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("outbox").path), [])
    }
}

/// upload-keep false: the local copy goes once the server confirmed it, and only then.
final class OutboxNoKeepFlowTests: OutboxUploadFlowTestCase {
    override var configuration: String { super.configuration + "upload-keep = false\n" }

    func testTheLocalCopyIsRemovedAfterAConfirmedDelivery() throws {
        try startDaemon()
        let c = lensd.client()
        let (session, names, _) = try twoPhotosQueuedWithNginxStopped(c)
        for name in names {
            XCTAssertNoThrow(try c.call(session, "FetchResult", [.string(name)]).first?.fdValue.map { close($0) }, "kept until delivered")
        }
        try nginx.start()
        for _ in names { try c.waitForSignal("ResultUploaded", path: session) }
        for name in names {
            XCTAssertTrue(FileManager.default.fileExists(atPath: arrived(name, "jpg").path))
            XCTAssertThrowsError(try c.call(session, "FetchResult", [.string(name)])) { XCTAssertEqual($0.shortName, "NotFound") }
        }
        XCTAssertEqual(lensd.stateFiles.photos, [])
    }
}

/// upload-auth-file: read once at start; its token goes with every upload; a file anyone but root
/// could write stops lensd at start-up with a line that says so.
final class OutboxCredentialFlowTests: OutboxUploadFlowTestCase {
    private var server: ScriptedHTTPServer!
    private var authFile: URL { tmp.file("upload-token") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try ScriptedHTTPServer(statuses: "201", in: tmp)
        // Root-owned (the test runs as root), like root:lensd 0640.
        FileManager.default.createFile(atPath: authFile.path, contents: Data("camera-7:s3cret\n".utf8),
                                       attributes: [.posixPermissions: 0o644])
    }

    override var uploadURL: String { "http://127.0.0.1:\(server.port)/up/{name}.{ext}" }
    override var configuration: String { super.configuration + "upload-auth-file = \(authFile.path)\n" }

    override func tearDownWithError() throws {
        defer { server.stop(); server = nil }
        try super.tearDownWithError()
    }

    func testTheCredentialGoesWithTheUploadAndAnUnsafeFileStopsLensd() throws {
        try startDaemon()
        let c = lensd.client()
        let session = try c.claimedSession()
        let photo = try c.photo(in: session)
        try c.waitForSignal("ResultUploaded", path: session)
        let log = try server.log()
        XCTAssertTrue(log.contains(" Basic \(Data("camera-7:s3cret".utf8).base64EncodedString()) "), log)
        XCTAssertTrue(log.hasPrefix("PUT /up/\(photo.name).jpg 201 "), log)

        try lensd.shutDown()
        lensd = nil
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: authFile.path)
        XCTAssertThrowsError(try startDaemon()) {
            XCTAssertTrue("\($0)".contains("upload-auth-file \(authFile.path) must be owned by root and writable only by root"), "\($0)")
        }
    }
}

/// upload-timeout (issue 35.4): a server that takes a photo's body and never answers costs its
/// attempt the deadline; the photo taken after it is delivered first, the first one on its retry.
final class OutboxDeadlineFlowTests: OutboxUploadFlowTestCase {
    private var server: ScriptedHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try ScriptedHTTPServer(statuses: "mute,201", in: tmp)
    }

    override var uploadURL: String { "http://127.0.0.1:\(server.port)/up/{name}.{ext}" }
    override var configuration: String { "upload-url = \(uploadURL)\nupload-retry-max = 1s\nupload-timeout = 2s\n" }

    override func tearDownWithError() throws {
        defer { server.stop(); server = nil }
        try super.tearDownWithError()
    }

    func testAMuteServerCostsOneDeadlineAndThePhotoAfterItGoesFirst() throws {
        try startDaemon()
        let c = lensd.client()
        let session = try c.claimedSession()
        let mark = c.signals.count
        let first = try c.photo(in: session).name
        let second = try c.photo(in: session).name
        let uploaded = try c.signals("ResultUploaded", path: session, since: mark, count: 2, timeout: .seconds(60))
        XCTAssertEqual(uploaded.map { $0.arguments.first?.stringValue }, [second, first])
        let paths = try server.requests().map { $0[1] }
        XCTAssertEqual(paths, ["/up/\(first).jpg", "/up/\(second).jpg", "/up/\(first).jpg"])
    }
}
