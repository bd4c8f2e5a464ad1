import LensCore
import XCTest

/// Fixes from a real gpsd fed NMEA logs: what the provider reports must be what the log says.
final class GPSDFixTests: XCTestCase {
    private var harness: GpsdHarness?

    override func tearDown() {
        harness?.tearDown()
        harness = nil
        super.tearDown()
    }

    /// Southern and western hemispheres, both sides of 0/0 and of the antimeridian, minutes
    /// < 10: every place in the log comes back exactly, and nothing else does (no flipped
    /// sign, no zeroed coordinate on the way).
    func testEveryLoggedPlaceReadsBackExactly() throws {
        let harness = try GpsdHarness(log: "places.nmea")
        self.harness = harness
        let places = harness.log.positions
        XCTAssertEqual(places.count, 6)
        harness.startProvider()

        harness.waitForStatus("fix at the log's last place", timeout: 15) {
            $0.fix?.matches(places.last!) ?? false
        }
        let fixes = harness.changes.compactMap(\.fix)
        for place in places {
            XCTAssertTrue(fixes.contains { $0.matches(place) }, "no fix at \(place); got \(fixes)")
        }
        for fix in fixes {
            XCTAssertTrue(places.contains { fix.matches($0) }, "\(fix) is none of the log's places")
            XCTAssertEqual(fix.mode, .threeD)
            XCTAssertFalse(fix.isDeclared)
            XCTAssertTrue(harness.log.receiverTimes.contains(fix.fixTime), "\(fix.fixTime) is not the receiver's time")
        }
    }

    func testTwoDimensionalFixHasNoAltitude() throws {
        let harness = try GpsdHarness(log: "fix2d.nmea")
        self.harness = harness
        harness.startProvider()

        let fix = try XCTUnwrap(harness.waitForFix(.twoD))
        XCTAssertNil(fix.altitude)
        XCTAssertTrue(fix.matches(harness.log.positions[0]), "\(fix) vs \(harness.log.positions[0])")
    }

    /// GGA's altitude is above mean sea level (35 m here; the ellipsoid height would be 82).
    func testThreeDimensionalFixAltitudeIsTheLoggedMSLAltitude() throws {
        let harness = try GpsdHarness(log: "hold-3d-4m.nmea")
        self.harness = harness
        harness.startProvider()

        let fix = try XCTUnwrap(harness.waitForFix(.threeD))
        let logged = harness.log.positions[0]
        XCTAssertEqual(try XCTUnwrap(fix.altitude), try XCTUnwrap(logged.altitudeMSL), accuracy: 1e-3)
        XCTAssertTrue(fix.matches(logged), "\(fix) vs \(logged)")
    }
}
