import Foundation
import LensBus
import LensContract
@testable import LensDaemon
import LensTestSupport
import XCTest

/// Waiting for a busy camera (issue 18.10), in process: lensd queues WaitForCamera calls and
/// grants the camera first come, first served as it is released; CameraHolder announces every
/// change; a wait's timeout passes on the clock the test moves.
final class CameraQueueFlowTests: DaemonTestCase {
    // One test opens six sessions as root.
    override var arguments: [String] { ["--max-sessions-per-user", "8"] }

    func testWaitersGetTheCameraInArrivalOrder() throws {
        let holder = lensd.client(), first = lensd.client(), gone = lensd.client(), second = lensd.client()
        let quitter = lensd.client(), gonePersistent = lensd.client()
        let held = try holder.claimedSession()
        XCTAssertEqual(try lensd.cameraHolder(holder), "root")
        var sessions: [String: String] = [:]
        var waits: [(label: String, answer: PendingAnswer)] = []
        // A persistent session outlives its caller's connection; its wait does not.
        for (label, waiter) in [("first", first), ("gone", gone), ("gonePersistent", gonePersistent), ("second", second),
                                ("quitter", quitter)] {
            sessions[label] = try waiter.openSession(label == "gonePersistent" ? ["persistent": .bool(true)] : [:])
            waits.append((label, try lensd.send(sessions[label]!, "WaitForCamera", [.double(60)], from: waiter)))
        }
        lensd.loop.run()
        XCTAssertTrue(waits.allSatisfy { $0.answer.value == nil }, "queued, not answered")
        // The answers of the waiters still on the bus, in the order they came.
        var answers: [String] = []
        func collect() -> Int {
            for (label, answer) in waits where !label.hasPrefix("gone") && !answers.contains(where: { $0.hasPrefix("\(label) ") }) {
                if let outcome = answer.outcome { answers.append("\(label) \(outcome)") }
            }
            return answers.count
        }
        // StartCaptureSession does not jump the queue, and still answers at once.
        let impatient = lensd.client()
        XCTAssertThrowsError(try impatient.call(try impatient.openSession(), "StartCaptureSession")) {
            XCTAssertEqual($0.shortName, "Busy")
            XCTAssertTrue(($0 as? BusError)?.message.contains("in use by root (session 1)") == true, "\($0)")
        }
        gone.disconnect()
        gonePersistent.disconnect()
        XCTAssertEqual(waits.filter { $0.label.hasPrefix("gone") }.map(\.answer.outcome), ["NotStarted", "NotStarted"],
                       "a wait ends with its caller's connection")
        try quitter.call(sessions["quitter"]!, "StopCaptureSession")
        try lensd.loop.run(until: { collect() == 1 }, "the quitter's answer")
        XCTAssertEqual(answers, ["quitter NotStarted"])

        try holder.call(held, "StopCaptureSession")
        try lensd.loop.run(until: { collect() == 2 }, "the first waiter's grant")
        XCTAssertEqual(answers.last, "first granted")
        try first.call(sessions["first"]!, "Close")
        try lensd.loop.run(until: { collect() == 3 }, "the second waiter's grant")
        XCTAssertEqual(answers.last, "second granted", "\(answers)")
        // Clients with a session learn each change of holder, without polling.
        let holders = try (0..<5).map { _ in
            try holder.waitForSignal("PropertiesChanged", path: Lens1.managerPath) {
                $0.arguments[1].vardictValue?["CameraHolder"] != nil
            }.arguments[1].vardictValue?["CameraHolder"]
        }
        XCTAssertEqual(holders.map { $0?.stringValue }, ["root", "", "root", "", "root"])
    }

    func testAWaitThatOutlastsItsTimeoutIsBusyNamingTheHolder() throws {
        let holder = lensd.client(), waiter = lensd.client()
        _ = try holder.claimedSession()
        let waiting = try waiter.openSession()
        let wait = try lensd.send(waiting, "WaitForCamera", [.double(0.3)], from: waiter)
        lensd.loop.advance(by: .milliseconds(299))
        XCTAssertNil(wait.value, "answered before its timeout")
        lensd.loop.advance(by: .milliseconds(1))
        guard case .failure(let error)? = wait.value else { return XCTFail("not answered Busy: \(String(describing: wait.value))") }
        XCTAssertEqual(error.shortName, "Busy")
        XCTAssertTrue(error.message.contains("gave up waiting for the camera"), "\(error)")
        XCTAssertTrue(error.message.contains("in use by root"), "\(error)")
        for bad in [0, -1, .infinity, .nan, 86_401] as [Double] {
            XCTAssertThrowsError(try waiter.call(waiting, "WaitForCamera", [.double(bad)])) {
                XCTAssertEqual($0.shortName, "InvalidArgument", "\(bad)")
            }
        }
    }
}
