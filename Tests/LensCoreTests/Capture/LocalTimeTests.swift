import Foundation
import LensCore
import XCTest

/// LocalTime reads the offset the C library applies (TZ), checked against ICU's zone data
/// (Foundation's TimeZone(identifier:)) on both sides of a daylight-saving change.
final class LocalTimeTests: XCTestCase {
    private var savedTZ: String?

    override func setUp() {
        savedTZ = ProcessInfo.processInfo.environment["TZ"]
    }

    override func tearDown() {
        if let savedTZ { setenv("TZ", savedTZ, 1) } else { unsetenv("TZ") }
        tzset()
    }

    func testOffsetsMatchTheZoneDatabase() throws {
        let winter = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let summer = Date(timeIntervalSince1970: 1_782_864_000)  // 2026-07-01T00:00:00Z
        for identifier in ["UTC", "Asia/Kolkata", "America/New_York", "America/Sao_Paulo", "Australia/Lord_Howe"] {
            setenv("TZ", identifier, 1)
            tzset()
            let reference = try XCTUnwrap(TimeZone(identifier: identifier))
            for date in [winter, summer] {
                XCTAssertEqual(LocalTime.zone(at: date).secondsFromGMT(for: date), reference.secondsFromGMT(for: date),
                               "\(identifier) at \(date)")
            }
        }
    }

    func testNewYorkChangesBetweenWinterAndSummer() {
        setenv("TZ", "America/New_York", 1)
        tzset()
        XCTAssertEqual(LocalTime.zone(at: Date(timeIntervalSince1970: 1_767_225_600)).secondsFromGMT(), -5 * 3600)
        XCTAssertEqual(LocalTime.zone(at: Date(timeIntervalSince1970: 1_782_864_000)).secondsFromGMT(), -4 * 3600)
    }
}
