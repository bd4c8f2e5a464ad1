import LensCore
import LensSystem
import LensTestSupport
import XCTest

/// A connection to gpsd the system refuses lensd (EPERM: a firewall, lensd.service's
/// IPAddressDeny=) reads as permission denied, not as gpsd absent nor as no fix. The refusal is
/// made through LensSystem's connect seam — a stand-in: setting up a real firewall or cgroup needs
/// tools and privileges these tests do not have — while libgps's own connect to the stopped gpsd
/// fails for real.
final class GPSDPermissionTests: XCTestCase {
    private var harness: GpsdHarness?

    override func tearDown() {
        SystemCalls.FaultInjection.reset()
        harness?.tearDown()
        harness = nil
        super.tearDown()
    }

    func testARefusedConnectionIsPermissionDeniedUntilItIsAllowed() throws {
        let harness = try GpsdHarness(log: "hold-3d-4m.nmea", startGpsd: false)
        self.harness = harness
        let endpoint = "127.0.0.1:\(harness.gpsd.port)"
        // Nobody listening is no refusal of permission.
        XCTAssertFalse(ConnectProbe.isPermissionDenied(ConnectProbe.failure(host: "127.0.0.1", port: String(harness.gpsd.port))))

        SystemCalls.FaultInjection.inject(.notPermitted, into: .connect, times: 1000)
        harness.startProvider()
        let denied = harness.waitForStatus("permission denied", timeout: 10) { if case .permissionDenied = $0 { true } else { false } }
        guard case .permissionDenied(let why)? = denied else { return }
        XCTAssertTrue(why.contains("lensd may not connect to gpsd at \(endpoint) (Operation not permitted)"), why)
        XCTAssertTrue(why.contains("IPAddressAllow="), why)

        // Allowed again, gpsd still down: unreachable, as before; then gpsd: a fix.
        SystemCalls.FaultInjection.reset()
        let absent = harness.waitForStatus("gpsd not reachable", timeout: 10) { $0.connectingReason != nil }
        XCTAssertTrue(absent?.connectingReason?.contains("gpsd at \(endpoint) is not reachable") == true, "\(String(describing: absent))")
        try harness.gpsd.start()
        XCTAssertNotNil(harness.waitForFix(.threeD, timeout: 20))
    }
}
