import Foundation
@testable import LensCore
import LensCrypto
import LensSystem
@testable import LensNetwork
@testable import LensStorage
import LensTestSupport
import XCTest

/// The outbox against real servers: nginx with WebDAV PUT (http, and https with a certificate
/// from a test PKI), and — for scripted status sequences, which nginx cannot produce —
/// Tests/oracle/scripted_http.py.
final class OutboxDeliveryTests: XCTestCase {
    private var nginx: NginxServer!
    private var harness: OutboxHarness!

    override func setUpWithError() throws {
        nginx = try NginxServer()
        try nginx.start()
        harness = try OutboxHarness()
    }

    override func tearDown() {
        harness = nil
        nginx = nil
    }

    private func settings(_ url: String, ca: URL? = nil) -> OutboxSettings {
        var settings = OutboxSettings(urlTemplate: url, caFile: ca?.path, retryMaxSeconds: 2)
        settings.firstRetrySeconds = 0.5
        return settings
    }

    func testResultsArriveWholeOverTLSInQueueOrderAndLeaveTheQueue() throws {
        try harness.open(settings(nginx.url(tls: true), ca: nginx.trustedCA))
        let results = try (0..<3).map { _ in try harness.result(size: 200_000) }
        for result in results { try harness.outbox.enqueue(result, fileExtension: "jpg") }
        try harness.events.wait("three deliveries") { $0.deliveries.count == 3 }
        XCTAssertEqual(harness.events.deliveries.map(\.record.name), results.map(\.name))
        for (delivery, result) in zip(harness.events.deliveries, results) {
            XCTAssertEqual(delivery.status, 201)
            XCTAssertEqual(delivery.url, "https://127.0.0.1:\(nginx.httpsPort)/dav/\(result.name).jpg")
            XCTAssertEqual(delivery.record.sha256, result.sha256)
            let arrived = nginx.root.appendingPathComponent("dav/\(result.name).jpg")
            XCTAssertEqual(try OutboxHarness.sha256(arrived), result.sha256)
        }
        XCTAssertEqual(harness.outbox.summary, .empty)
        XCTAssertEqual(harness.recordFiles(), [])
    }

    func testAWrongServerCertificateIsNotSentAndIsReported() throws {
        try harness.open(settings(nginx.url(tls: true), ca: nginx.untrustedCA))
        let result = try harness.result()
        try harness.outbox.enqueue(result, fileExtension: "jpg")
        try harness.events.wait("the failure in OutboxState") { _ in harness.outbox.summary.lastError.hasPrefix("TLS:") }
        let summary = harness.outbox.summary
        XCTAssertTrue(summary.lastError.contains("certificate"), summary.lastError)
        XCTAssertEqual(summary.queued, 1, "a TLS failure is retried: the operator may fix upload-ca")
        XCTAssertGreaterThan(summary.nextAttempt, 0)
        XCTAssertEqual(nginx.storedFiles(), [])
        XCTAssertEqual(nginx.puts, [], "no request reached nginx")
        XCTAssertTrue(harness.events.failures.isEmpty)
    }

    /// The server stops existing mid-way: nginx is SIGKILLed while a throttled upload is half-way
    /// through. It never keeps the partial body as the result, and the next attempt sends it whole.
    func testNginxKilledInTheMiddleOfALargeUploadKeepsNoPartialFileAndTheRetryDeliversItWhole() throws {
        let relayPort = try LoopbackPort.free()
        let relay = ServerProcess([try TestTools.python(), TestTools.oracleDir.appendingPathComponent("throttle_relay.py").path,
                                   "\(relayPort)", "\(nginx.httpPort)", "\(4 << 20)"], logPath: harness.directory.file("relay.log").path)
        try relay.start { LoopbackPort.isListening(relayPort) }
        try harness.open(settings("http://127.0.0.1:\(relayPort)/dav/{name}.{ext}"))
        let large = try harness.result(size: 12 << 20, fileExtension: "mp4")
        try harness.outbox.enqueue(large, fileExtension: "mp4")

        // Half-way: nginx's body temp file holds part of the upload.
        let deadline = Date().addingTimeInterval(60)
        while nginx.partialUploadBytes < 2 << 20 {
            guard Date() < deadline else { return XCTFail("the upload never started: \(nginx.errorLog)") }
            usleep(20_000)
        }
        nginx.stop(signal: SIGKILL)
        XCTAssertLessThan(nginx.partialUploadBytes, large.size, "killed before the body was complete")
        XCTAssertEqual(nginx.storedFiles(), [], "no partial file is kept as the result")
        try harness.events.wait("the failed attempt") { _ in !harness.outbox.summary.lastError.isEmpty }
        XCTAssertEqual(harness.outbox.summary.queued, 1)

        try nginx.start()
        try harness.events.wait("the delivery") { $0.deliveries.count == 1 }
        let arrived = nginx.root.appendingPathComponent("dav/\(large.name).mp4")
        XCTAssertEqual(try OutboxHarness.sha256(arrived), large.sha256)
        XCTAssertEqual(nginx.storedFiles().count, 1)
    }

    func testTheQueueSurvivesARestartAndARequeuedFileIsWhatIsDelivered() throws {
        let closed = try LoopbackPort.Closed()
        defer { withExtendedLifetime(closed) {} }
        try harness.open(settings("http://127.0.0.1:\(closed.port)/dav/{name}.{ext}"))
        let first = try harness.result(), second = try harness.result()
        try harness.outbox.enqueue(first, fileExtension: "jpg")
        try harness.outbox.enqueue(second, fileExtension: "jpg")
        try harness.events.wait("connection refused") { _ in harness.outbox.summary.lastError.contains("onnect") }
        XCTAssertEqual(harness.recordFiles(), ["\(first.name).json", "\(second.name).json"].sorted())
        harness.close()

        // The second result's file is replaced (as a later time-stamp does) and queued again.
        let updated = Array("updated bytes".utf8)
        try Data(updated).write(to: URL(fileURLWithPath: second.path))
        var changed = second
        changed.size = updated.count
        changed.sha256 = SHA256Hex.digest([updated])

        try harness.open(settings(nginx.url(tls: false)))
        // Both survived the restart; their order is that of their last failed attempts, which the
        // retries before the close decided.
        XCTAssertEqual(Set(harness.outbox.records(uid: nil).map(\.name)), [first.name, second.name])
        try harness.outbox.enqueueAgain(changed, fileExtension: "jpg")
        try harness.events.wait("both delivered") { $0.deliveries.count == 2 }
        XCTAssertEqual(try OutboxHarness.sha256(nginx.root.appendingPathComponent("dav/\(second.name).jpg")), changed.sha256)
        XCTAssertEqual(try OutboxHarness.sha256(nginx.root.appendingPathComponent("dav/\(first.name).jpg")), first.sha256)
        XCTAssertEqual(harness.recordFiles(), [])
    }

    func testA413IsAPermanentFailureThatIsNotRetriedUntilAsked() throws {
        try harness.open(settings(nginx.url(tls: false, location: "small")))
        let result = try harness.result(size: 8192)
        try harness.outbox.enqueue(result, fileExtension: "jpg")
        try harness.events.wait("UploadFailed") { $0.failures.count == 1 }
        XCTAssertEqual(harness.events.failures.first?.error, UploadError.tooLarge)
        XCTAssertEqual(harness.outbox.records(uid: nil).map(\.state), [.failed])
        XCTAssertEqual(harness.outbox.summary.queued, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: result.path), "kept locally")
        XCTAssertEqual(harness.outbox.summary.nextAttempt, 0, "no attempt is scheduled")
        // The queue moves on: a small result queued after it is delivered, and the refused one
        // was not tried again meanwhile.
        let small = try harness.result(size: 500)
        try harness.outbox.enqueue(small, fileExtension: "jpg")
        try harness.events.wait("the small one delivered") { $0.deliveries.count == 1 }
        XCTAssertEqual(nginx.puts(count: 2), ["/small/\(result.name).jpg 413", "/small/\(small.name).jpg 201"])

        // Until someone asks.
        XCTAssertEqual(harness.outbox.retry(uid: 1000, name: result.name), 1)
        try harness.events.wait("the second UploadFailed") { $0.failures.count == 2 }
        XCTAssertEqual(nginx.puts(count: 3).count, 3)
    }

    func testAFileOverUploadMaxBytesIsRefusedWithoutARequest() throws {
        var limited = settings(nginx.url(tls: false))
        limited.maxBytes = 1000
        try harness.open(limited)
        let result = try harness.result(size: 1001)
        try harness.outbox.enqueue(result, fileExtension: "jpg")
        try harness.events.wait("UploadFailed") { $0.failures.count == 1 }
        XCTAssertEqual(harness.events.failures.first?.error, UploadError.tooLarge)
        XCTAssertTrue(harness.events.failures.first?.message.contains("upload-max-bytes") ?? false)
        XCTAssertEqual(nginx.puts, [])
    }

    /// What `stop` does to an upload in flight: once its AbortSignal is raised, the transfer
    /// ends with a transport failure and nothing is stored.
    func testARaisedAbortSignalEndsTheTransfer() throws {
        let result = try harness.result(size: 1 << 20)
        let abort = AbortSignal()
        abort.raise()
        let url = UploadURL.expand(nginx.url(tls: false), name: result.name, fileExtension: "jpg")
        let upload = HTTPUpload(url: url, headers: [], caFile: nil, abort: abort, deadlineSeconds: 60)
        let file = try FileDescriptor.open(result.path, O_RDONLY)
        XCTAssertThrowsError(try upload.send(file, size: result.size)) { error in
            XCTAssertTrue(error is HTTPUpload.TransportFailure, "\(error)")
        }
        XCTAssertEqual(nginx.storedFiles(), [])
    }

    /// nginx cannot answer 500 and then 201, so a scripted Python server does.
    func testA500ThenA201IsDeliveredOnceWithTheDigestHeaders() throws {
        let server = try ScriptedHTTPServer(statuses: "500,201", in: harness.directory)
        defer { server.stop() }
        var withToken = settings("http://127.0.0.1:\(server.port)/up/{name}.{ext}")
        withToken.authorization = "Bearer t0ken"
        try harness.open(withToken)
        let bytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let result = try harness.result(bytes: bytes)
        try harness.outbox.enqueue(result, fileExtension: "jpg")
        try harness.events.wait("the delivery") { $0.deliveries.count == 1 }
        let sha = result.sha256 ?? ""
        // RFC 3230's Digest is the base64 of the raw digest; Content-SHA256 its hex.
        let digest = "sha-256=" + Data(Digest.hash(bytes)).base64EncodedString()
        let expected = ["PUT", "/up/\(result.name).jpg", "500", "50000", sha, digest, "Bearer", "t0ken"]
        XCTAssertEqual(try server.requests().map { Array($0.dropLast()) }, [expected, expected.replacing(["500"], with: ["201"])])
        XCTAssertEqual(try OutboxHarness.sha256(server.received.appendingPathComponent("\(result.name).jpg")), sha)
        XCTAssertEqual(harness.events.deliveries.count, 1)
        XCTAssertEqual(harness.events.deliveries.first?.record.attempts, 2)
    }

    /// A 429's Retry-After (1 s from the script) replaces a much shorter backoff.
    func testRetryAfterOfA429IsHonoured() throws {
        let server = try ScriptedHTTPServer(statuses: "429,201", in: harness.directory)
        defer { server.stop() }
        var quick = settings("http://127.0.0.1:\(server.port)/up/{name}.{ext}")
        quick.firstRetrySeconds = 0.05
        try harness.open(quick)
        try harness.outbox.enqueue(try harness.result(), fileExtension: "jpg")
        try harness.events.wait("the delivery") { $0.deliveries.count == 1 }
        let log = try server.requests()
        XCTAssertEqual(log.map { $0[2] }, ["429", "201"])
        let gap = (Double(log[1].last ?? "") ?? 0) - (Double(log[0].last ?? "") ?? 0)
        XCTAssertGreaterThanOrEqual(gap, 0.95, "waited for Retry-After, not the 0.05 s backoff")
    }
}

/// A slow server (issue 35.4): an attempt ends by its deadline, upload-timeout for a small file,
/// and the result goes behind those queued before the failure, so they are not held back.
final class OutboxDeadlineTests: XCTestCase {
    private var harness: OutboxHarness!

    override func setUpWithError() throws { harness = try OutboxHarness() }
    override func tearDown() { harness = nil }

    func testAServerDrippingItsAnswerCostsOneDeadlineAndTheNextResultGoesFirst() throws {
        try deliverPastASlowServer("drip")
    }

    func testAServerThatNeverAnswersCostsOneDeadlineAndTheNextResultGoesFirst() throws {
        try deliverPastASlowServer("mute")
    }

    /// The first PUT meets the slow server, every later one a 201. The retry is due at once, so
    /// only the queue's order puts the second result before the first one's retry.
    private func deliverPastASlowServer(_ slow: String) throws {
        let server = try ScriptedHTTPServer(statuses: "\(slow),201", in: harness.directory)
        defer { server.stop() }
        var settings = OutboxSettings(urlTemplate: "http://127.0.0.1:\(server.port)/up/{name}.{ext}", attemptSeconds: 2)
        settings.firstRetrySeconds = 0
        try harness.open(settings)
        let first = try harness.result(size: 1000), second = try harness.result(size: 1000)
        try harness.outbox.enqueue(first, fileExtension: "jpg")
        try harness.outbox.enqueue(second, fileExtension: "jpg")
        try harness.events.wait("both delivered") { $0.deliveries.count == 2 }

        XCTAssertEqual(harness.events.deliveries.map(\.record.name), [second.name, first.name],
                       "the result whose attempt failed went behind the other")
        XCTAssertEqual(harness.events.deliveries.map(\.record.attempts), [1, 2])
        let log = try server.requests()
        XCTAssertEqual(log.map { $0[1] }, ["/up/\(first.name).jpg", "/up/\(second.name).jpg", "/up/\(first.name).jpg"])
        let errors = harness.events.all.compactMap { if case .changed(let summary) = $0 { summary.lastError } else { nil } }
        let timeout = try XCTUnwrap(errors.first { !$0.isEmpty }, "the failed attempt is reported")
        XCTAssertTrue(timeout.contains("deadline of 2 s (upload-timeout)"), timeout)
        // The second PUT came after the first attempt's deadline (2 s, plus 1000 bytes at 128 KiB/s), and not much later.
        let waited = (Double(log[1].last ?? "") ?? 0) - (Double(log[0].last ?? "") ?? 0)
        XCTAssertGreaterThanOrEqual(waited, 1.8, "the attempt lasted its deadline (from a little after it began)")
        XCTAssertLessThan(waited, 30, "and no longer (liveness bound)")
    }
}
