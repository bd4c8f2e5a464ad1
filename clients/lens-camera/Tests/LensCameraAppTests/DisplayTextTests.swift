@testable import LensCameraUI
import LensClient
import XCTest

final class DisplayTextTests: XCTestCase {
    func testDurationIsMinutesAndSeconds() {
        XCTAssertEqual(DisplayText.duration(0), "00:00")
        XCTAssertEqual(DisplayText.duration(65.9), "01:05")
        XCTAssertEqual(DisplayText.duration(4500), "75:00")
        XCTAssertEqual(DisplayText.duration(-.infinity), "00:00")
    }

    func testZoomIndicator() {
        XCTAssertEqual(DisplayText.zoom(2), "2.0×")
        XCTAssertEqual(DisplayText.zoom(1.5625), "1.6×")
    }

    func testReasonsInWordsWithLensdsDetails() {
        let text = DisplayText.disabledReasons([.location, .enrollment],
                                               details: [.location: "no fix yet from gpsd at 127.0.0.1:2947 (need ≤ 50 m)"],
                                               maximumAccuracy: 50)
        XCTAssertEqual(text, "Waiting for a location fix: no fix yet from gpsd at 127.0.0.1:2947 (need ≤ 50 m)\nDevice not enrolled")
        XCTAssertEqual(DisplayText.disabledReasons([.location], details: [:], maximumAccuracy: 49.6),
                       "Waiting for a location fix (need ≤ 50 m)")
        XCTAssertEqual(DisplayText.disabledReasons([LensDisabledReason(rawValue: "future")], details: [:], maximumAccuracy: 50),
                       "Capture unavailable (future)", "a reason this version does not know is still shown")
    }

    func testBusChoice() throws {
        guard case .system = try BusChoice.parse([]) else { return XCTFail("system by default") }
        guard case .session = try BusChoice.parse(["--bus", "session"]) else { return XCTFail("session") }
        guard case .address("unix:path=/tmp/b") = try BusChoice.parse(["--bus", "unix:path=/tmp/b"]) else { return XCTFail("address") }
        XCTAssertThrowsError(try BusChoice.parse(["--bus"]))
        XCTAssertThrowsError(try BusChoice.parse(["--frobnicate"]))
    }
}
