import Foundation
import LensBus
@testable import LensDaemon
import LensTestSupport
import XCTest

/// A claim left idle while others wait is released (issue 21.5), with a 1 s claim-idle-timeout
/// on the clock the test moves: not a moment before it has passed.
final class IdleClaimFlowTests: DaemonTestCase {
    override var arguments: [String] { ["--claim-idle-timeout", "1"] }

    func testAnIdleClaimIsReleasedOnlyWhileSomeoneWaits() throws {
        let abandoned = lensd.client(), waiter = lensd.client()
        let held = try abandoned.claimedSession(["persistent": .bool(true)])
        // Nobody waits: the claim outlives the timeout (twice over) untouched.
        lensd.loop.advance(by: .milliseconds(2500))
        XCTAssertFalse(abandoned.signals.contains { $0.member == "Failed" }, "\(abandoned.signals.map(\.member))")
        XCTAssertEqual(try lensd.cameraHolder(abandoned), "root")
        // A capture is use: the idle clock starts when it is stored.
        _ = try abandoned.photo(in: held)
        let wait = try lensd.send(try waiter.openSession(), "WaitForCamera", [.double(60)], from: waiter)
        lensd.loop.advance(by: .milliseconds(999))
        XCTAssertFalse(abandoned.signals.contains { $0.member == "Failed" }, "released before claim-idle-timeout")
        XCTAssertNil(wait.value)
        lensd.loop.advance(by: .milliseconds(1))
        let failed = try abandoned.waitForSignal("Failed")
        XCTAssertEqual(failed.arguments.map(\.stringValue), ["org.lensd.Lens1.Error.Busy", "released: idle while others waited"])
        try lensd.loop.run(until: { wait.value != nil }, "the waiter's grant")
        XCTAssertEqual(wait.outcome, "granted")
        XCTAssertThrowsError(try abandoned.call(held, "BeginCapture")) { XCTAssertEqual($0.shortName, "NotStarted") }
    }
}
