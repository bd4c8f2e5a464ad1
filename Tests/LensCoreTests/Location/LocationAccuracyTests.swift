import Foundation
import LensCore
import XCTest

final class LocationAccuracyTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_717_243_200)

    func testThresholdRange() {
        for invalid in [.nan, .infinity, -.infinity, 2.999, 1500.001, 0, -5] as [Double] {
            XCTAssertFalse(LocationAccuracy.isValidThreshold(invalid), "\(invalid)")
        }
        for valid in [3, 1500, 100] as [Double] {
            XCTAssertTrue(LocationAccuracy.isValidThreshold(valid), "\(valid)")
        }
        XCTAssertTrue(LocationAccuracy.isValidThreshold(LocationAccuracy.defaultThreshold))
        XCTAssertEqual(LocationAccuracy.range, 3...1500)
    }

    func testSatisfies() {
        let fix = LocationFix(
            latitude: -33.0456, longitude: -70.0612, altitude: nil, horizontalAccuracy: 4,
            mode: .twoD, fixTime: now, receivedAt: now)
        XCTAssertTrue(LocationAccuracy.satisfies(fix, threshold: 4), "the limit is inclusive")
        XCTAssertFalse(LocationAccuracy.satisfies(fix, threshold: 3))
        XCTAssertFalse(LocationAccuracy.satisfies(nil, threshold: 1500))

        var broken = fix
        broken.mode = .none
        XCTAssertFalse(LocationAccuracy.satisfies(broken, threshold: 1500))
        for change in [
            { (fix: inout LocationFix) in fix.latitude = .nan },
            { $0.longitude = .infinity },
            { $0.horizontalAccuracy = .nan },
            { $0.horizontalAccuracy = .infinity },
        ] {
            broken = fix
            change(&broken)
            XCTAssertFalse(LocationAccuracy.satisfies(broken, threshold: 1500), "\(broken)")
        }
    }

    func testDeclaredLocationIsAlwaysAFreshDeclaredFix() {
        let with = DeclaredLocation(latitude: -16.1234, longitude: 179.9994, altitude: 11, accuracy: 10)
            .fix(now: now)
        XCTAssertEqual(
            with,
            LocationFix(
                latitude: -16.1234, longitude: 179.9994, altitude: 11, horizontalAccuracy: 10,
                mode: .threeD, fixTime: now, receivedAt: now, isDeclared: true))
        let without = DeclaredLocation(latitude: 1, longitude: 2, altitude: nil, accuracy: 10).fix(now: now)
        XCTAssertEqual(without.mode, .twoD)
        XCTAssertNil(without.altitude)
        XCTAssertTrue(without.isDeclared)
    }

    func testFixModeWireNames() {
        XCTAssertEqual([FixMode.none, .twoD, .threeD].map(\.rawValue), ["none", "2d", "3d"])
    }
}
