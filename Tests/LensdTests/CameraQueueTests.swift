import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// Waiting for a busy camera (issue 18.10) through the clients on the real bus: LensClient's
/// wait, and lensctl's captures queueing as three users at once. The queue itself, its order,
/// timeouts and CameraHolder's announcements are CameraQueueFlowTests' (in process), the idle
/// claim's release IdleClaimFlowTests'.
final class CameraQueueTests: LensdTestCase {
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
                    do {
                        let r = try lensctl.run(["capture", "--timeout", "600", "-o", path.path], as: users[client % 3])
                        results.append((path, r.status, r.stderr))
                    } catch {
                        results.append((path, -1, "not run: \(error)"))
                    }
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

extension LensdTestCase {
    /// Until lensd's log (debug level in tests) has a line containing `text`.
    func waitForLog(_ text: String, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !daemon.log.contains(text) {
            guard Date() < deadline else { throw TestToolError("lensd logged no '\(text)' within \(timeout) s") }
            usleep(20_000)
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
