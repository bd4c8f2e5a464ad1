import Foundation
import LensCore
import Synchronization
import XCTest

/// A fix older than 5 s is as good as none, even when nothing arrives to say so.
final class GPSDStalenessTests: XCTestCase {
    private var harness: GpsdHarness?

    override func tearDown() {
        harness?.tearDown()
        harness = nil
        super.tearDown()
    }

    /// The receiver stops talking (the log ends; the feeder stays connected) while gpsd
    /// lives: the fix goes stale 5 s after the last report, by the provider's own timer.
    func testSilentReceiverMakesTheFixStale() throws {
        let harness = try GpsdHarness(log: "brief-3d-4m.nmea")
        self.harness = harness
        harness.startProvider()
        XCTAssertNotNil(harness.waitForFix(.threeD))

        let noFix = harness.waitForStatus("stale fix", timeout: 10) { $0 == .noFix }
        XCTAssertNotNil(noFix)
        let staleAt = Date()
        let lastFix = try XCTUnwrap(harness.changes.compactMap(\.fix).last)
        let silence = staleAt.timeIntervalSince(lastFix.receivedAt)
        XCTAssertGreaterThanOrEqual(silence, 5)
        XCTAssertLessThan(silence, 6)
        XCTAssertNil(harness.currentFix)
        XCTAssertEqual(harness.changes.last, .noFix, "the timer published the change")
        XCTAssertTrue(harness.gpsd.isRunning)
    }

    /// Staleness is measured with the injected clock, and a clock set back does not keep a
    /// fix alive. Each check runs in one loop turn, so no new report can intervene.
    func testInjectedClockDecidesStaleness() throws {
        let clock = AdjustableClock()
        let harness = try GpsdHarness(log: "hold-3d-4m.nmea", clock: { clock.now() })
        self.harness = harness
        harness.startProvider()
        XCTAssertNotNil(harness.waitForFix(.threeD))

        let provider = harness.provider
        for (jump, name) in [(5.0, "5 s later"), (-60.0, "clock set back a minute")] {
            let (before, after, status) = harness.loop.sync {
                let before = provider.currentFix
                clock.advance(by: jump)
                defer { clock.advance(by: -jump) }
                return (before, provider.currentFix, provider.status)
            }
            XCTAssertNotNil(before, name)
            XCTAssertNil(after, name)
            XCTAssertEqual(status, .noFix, name)
        }
    }
}

private final class AdjustableClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)
    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
