import LensCore
import XCTest

/// gpsd going away and coming back, with the same provider throughout.
final class GPSDReconnectTests: XCTestCase {
    private var harness: GpsdHarness?

    override func tearDown() {
        harness?.tearDown()
        harness = nil
        super.tearDown()
    }

    func testKilledGpsdIsNoticedAndItsRestartPickedUp() throws {
        let fdsBefore = try openFileDescriptorCount()
        let harness = try GpsdHarness(log: "hold-3d-4m.nmea")
        self.harness = harness
        harness.startProvider()
        XCTAssertNotNil(harness.waitForFix(.threeD))

        let killed = Date()
        harness.gpsd.kill(signal: SIGKILL)
        let lost = harness.waitForStatus("connecting after gpsd was killed", timeout: 5) {
            $0.connectingReason != nil
        }
        XCTAssertLessThan(Date().timeIntervalSince(killed), 5)
        let reason = try XCTUnwrap(lost?.connectingReason)
        XCTAssertTrue(reason.contains("gpsd at 127.0.0.1:\(harness.gpsd.port)"), reason)
        XCTAssertTrue(reason.contains("retrying in"), reason)
        XCTAssertNil(harness.currentFix)

        try harness.gpsd.start()  // same port, same provider
        XCTAssertNotNil(harness.waitForFix(.threeD, timeout: 15))

        harness.tearDown()
        self.harness = nil
        XCTAssertEqual(try openFileDescriptorCount(), fdsBefore, "file descriptors leaked")
    }

    /// No gpsd at start: the provider says why, backs off 0.5, 1, 2 … s, and connects once
    /// gpsd appears.
    func testAbsentGpsdIsRetriedWithBackoff() throws {
        let harness = try GpsdHarness(log: "hold-3d-4m.nmea", startGpsd: false)
        self.harness = harness
        XCTAssertEqual(harness.status, .disabled)
        harness.startProvider()

        let first = try XCTUnwrap(harness.status.connectingReason)
        XCTAssertEqual(
            first,
            "gpsd at 127.0.0.1:\(harness.gpsd.port) is not reachable (can't connect to host/port pair); retrying in 0.5 s")
        harness.waitForStatus("third attempt", timeout: 3) {
            $0.connectingReason?.hasSuffix("retrying in 2 s") ?? false
        }

        try harness.gpsd.start()
        XCTAssertNotNil(harness.waitForFix(.threeD, timeout: 15))
        let waits = harness.changes.compactMap(\.connectingReason).map { $0.components(separatedBy: "; ").last! }
        XCTAssertEqual(Array(waits.prefix(3)), ["retrying in 0.5 s", "retrying in 1 s", "retrying in 2 s"])

        harness.loop.sync { [provider = harness.provider] in provider.stop() }
        XCTAssertEqual(harness.status, .disabled)
        XCTAssertEqual(harness.changes.last, .disabled)
    }

    private func openFileDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }
}
