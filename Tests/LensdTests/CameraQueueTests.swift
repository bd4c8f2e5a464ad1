import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// Waiting for a busy camera (issue 18.10): lensd queues WaitForCamera calls and grants the
/// camera first come, first served as it is released; CameraHolder announces every change.
final class CameraQueueTests: LensdTestCase {
    // One test opens six sessions as root.
    override var daemonArguments: [String] { super.daemonArguments + ["--max-sessions-per-user", "8"] }

    func testWaitersGetTheCameraInArrivalOrder() throws {
        let holder = try client(), first = try client(), gone = try client(), second = try client(), quitter = try client()
        let gonePersistent = try client()
        let held = try holder.openSession()
        try holder.call(held, "StartCaptureSession")
        XCTAssertEqual(try cameraHolder(holder), "root")
        var answers: [String] = []
        var sessions: [String: String] = [:]
        // A persistent session outlives its caller's connection; its wait does not.
        for (label, waiter) in [("first", first), ("gone", gone), ("gonePersistent", gonePersistent), ("second", second),
                                ("quitter", quitter)] {
            sessions[label] = try waiter.openSession(label == "gonePersistent" ? ["persistent": .bool(true)] : [:])
            try waitForCamera(waiter, sessions[label]!, seconds: 60) { answers.append("\(label) \($0)") }
        }
        // StartCaptureSession does not jump the queue, and still answers at once.
        let impatient = try client()
        XCTAssertThrowsError(try impatient.call(try impatient.openSession(), "StartCaptureSession")) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "Busy")
            XCTAssertTrue(($0 as? BusError)?.message.contains("in use by root (session 1)") == true, "\($0)")
        }
        gone.bus.close()
        gonePersistent.bus.close()
        try quitter.call(sessions["quitter"]!, "StopCaptureSession")
        try pump([first, second, quitter], until: { answers.count == 1 })
        XCTAssertEqual(answers, ["quitter NotStarted"])

        try holder.call(held, "StopCaptureSession")
        try pump([first, second], until: { answers.count == 2 })
        XCTAssertEqual(answers.last, "first granted")
        try first.call(sessions["first"]!, "Close")
        try pump([first, second], until: { answers.count == 3 })
        XCTAssertEqual(answers.last, "second granted", "\(answers)")
        // Clients with a session learn each change of holder, without polling.
        let holders = try (0..<5).map { _ in
            try holder.waitForSignal("PropertiesChanged", path: TestClient.managerPath) {
                $0.arguments[1].vardictValue?["CameraHolder"] != nil
            }.arguments[1].vardictValue?["CameraHolder"]
        }
        XCTAssertEqual(holders.map { $0?.stringValue }, ["root", "", "root", "", "root"])
    }

    func testAWaitThatOutlastsItsTimeoutIsBusyNamingTheHolder() throws {
        let holder = try client(), waiter = try client()
        try holder.call(try holder.openSession(), "StartCaptureSession")
        let waiting = try waiter.openSession()
        XCTAssertThrowsError(try waiter.call(waiting, "WaitForCamera", [.double(0.3)])) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "Busy")
            XCTAssertTrue(($0 as? BusError)?.message.contains("gave up waiting for the camera") == true, "\($0)")
            XCTAssertTrue(($0 as? BusError)?.message.contains("in use by root") == true, "\($0)")
        }
        for bad in [0, -1, .infinity, .nan, 86_401] as [Double] {
            XCTAssertThrowsError(try waiter.call(waiting, "WaitForCamera", [.double(bad)])) {
                XCTAssertEqual(($0 as? BusError)?.shortName, "InvalidArgument", "\(bad)")
            }
        }
    }

    /// LensClient's wait: it returns once the holder lets go, and `status().cameraHolder` follows.
    func testLensCameraWaitsForTheCamera() throws {
        let holder = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "holder"))
        let waiter = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "waiter"))
        defer { waiter.close() }
        try holder.startCaptureSession()
        XCTAssertEqual(try waiter.status().cameraHolder, "root")
        XCTAssertThrowsError(try waiter.waitForCamera(timeout: .milliseconds(300))) {
            guard case .busy(let message) = $0 as? LensClientError else { return XCTFail("\($0)") }
            XCTAssertTrue(message.contains("in use by root"), message)
        }
        let granted = DispatchSemaphore(value: 0)
        let outcome = Collected<String>()
        Thread {
            do { try waiter.waitForCamera(timeout: .seconds(60)); outcome.append("granted") } catch { outcome.append("\(error)") }
            granted.signal()
        }.start()
        // Released only once lensd has the wait queued, so the wait is what is tested.
        try waitForLog("waits for the camera (1 waiting")
        holder.close()
        XCTAssertEqual(granted.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(outcome.items, ["granted"])
        XCTAssertNoThrow(try waiter.beginCapture())
    }

    /// 6 clients × 8 `lensctl capture` at once, as three users: all 48 photos are taken, each
    /// Trusted by c2pa-python, and lensd holds no more descriptors afterwards than before.
    func testSixClientsCapturingEightTimesEachAllSucceed() throws {
        let users: [String?] = [TestUsers.member, TestUsers.secondMember, nil]
        try lensctl.expect(0, ["capture", "-o", outbox.appendingPathComponent("warm-up.jpg").path])
        let before = try daemonResources()
        let results = Collected<(path: URL, status: Int32, stderr: String)>()
        let group = DispatchGroup()
        for client in 0..<6 {
            group.enter()
            Thread { [lensctl, outbox] in
                defer { group.leave() }
                for capture in 0..<8 {
                    let path = outbox.appendingPathComponent("c\(client)-\(capture).jpg")
                    let r = try? lensctl.run(["capture", "--timeout", "600", "-o", path.path], as: users[client % 3])
                    results.append((path, r?.status ?? -1, r?.stderr ?? "not run"))
                }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 900), .success)
        let all = results.items
        XCTAssertEqual(all.count, 48)
        for result in all { XCTAssertEqual(result.status, 0, "\(result.path.lastPathComponent): \(result.stderr)") }
        XCTAssertTrue(all.contains { $0.stderr.contains("waiting for the camera: in use by ") }, "nobody waited")
        let anchor = try client().trustAnchorFile(in: tmp)
        for result in all { _ = try ReferenceValidator.assertTrusted(result.path, anchors: [anchor]) }
        let after = try daemonResources()
        print("lensd fds before \(before.fds), after 48 concurrent captures \(after.fds); RSS \(before.rssKiB) → \(after.rssKiB) KiB")
        XCTAssertLessThanOrEqual(after.fds, before.fds + 2, "lensd's descriptors grew")
    }
}

/// A claim left idle while others wait is released (issue 21.5), with a 1 s claim-idle-timeout.
final class IdleClaimTests: LensdTestCase {
    override var daemonArguments: [String] { super.daemonArguments + ["--claim-idle-timeout", "1"] }

    func testAnIdleClaimIsReleasedOnlyWhileSomeoneWaits() throws {
        let abandoned = try client(), waiter = try client()
        let held = try abandoned.openSession(["persistent": .bool(true)])
        try abandoned.call(held, "StartCaptureSession")
        // Nobody waits: the claim outlives the timeout (twice over) untouched; the wait is the subject.
        try abandoned.drain(for: 2.5)
        XCTAssertFalse(abandoned.signals.contains { $0.member == "Failed" }, "\(abandoned.signals.map(\.member))")
        XCTAssertEqual(try cameraHolder(abandoned), "root")
        // A capture is use: the idle clock starts when it is stored.
        try abandoned.call(held, "BeginCapture")
        try abandoned.waitForSignal("PhotoSigned")
        let lastUse = ContinuousClock.now
        var granted = false
        try waitForCamera(waiter, try waiter.openSession(), seconds: 60) { granted = $0 == "granted" }
        let failed = try abandoned.waitForSignal("Failed")
        let idle = ContinuousClock.now - lastUse
        XCTAssertEqual(failed.arguments.map(\.stringValue), ["org.lensd.Lens1.Error.Busy", "released: idle while others waited"])
        XCTAssertGreaterThanOrEqual(idle, .milliseconds(900), "released before claim-idle-timeout")
        try pump([waiter], until: { granted })
        XCTAssertThrowsError(try abandoned.call(held, "BeginCapture")) { XCTAssertEqual(($0 as? BusError)?.shortName, "NotStarted") }
    }
}

extension LensdTestCase {
    /// Until lensd's log (debug level in tests) has a line containing `text`.
    func waitForLog(_ text: String, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !daemon.log.contains(text) {
            guard Date() < deadline else { throw TestToolError("lensd logged no '\(text)' within \(timeout) s") }
            usleep(20_000)
        }
    }

    func cameraHolder(_ client: TestClient) throws -> String? {
        try client.get(TestClient.managerPath, "CameraHolder", interface: TestClient.manager).stringValue
    }

    /// WaitForCamera sent without blocking; `answered` gets "granted" or the error's short name.
    /// Returns once lensd has queued it: a Ping on the same connection is answered after it.
    func waitForCamera(_ client: TestClient, _ session: String, seconds: Double, answered: @escaping (String) -> Void) throws {
        try client.bus.callAsync(destination: TestClient.destination, path: session, interface: TestClient.session,
                                 member: "WaitForCamera", arguments: [.double(seconds)], timeout: .seconds(seconds + 10)) {
            switch $0 {
            case .success: answered("granted")
            case .failure(let error): answered(error.shortName)
            }
        }
        try client.ping()
    }

    /// Runs the clients' loops until `done` holds.
    func pump(_ clients: [TestClient], timeout: TimeInterval = 20, until done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !done() {
            guard Date() < deadline else { throw TestToolError("not done within \(timeout) s") }
            for client in clients { _ = try client.loop.runOnce(timeout: .milliseconds(10)) }
        }
    }
}

/// What concurrent threads of a test hand back.
private final class Collected<Item>: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [Item] = []

    func append(_ item: Item) { lock.withLock { collected.append(item) } }
    var items: [Item] { lock.withLock { collected } }
}
