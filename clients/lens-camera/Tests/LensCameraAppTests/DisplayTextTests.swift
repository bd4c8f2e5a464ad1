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

    /// Plain words for each reason; lensd's own words (gpsd's address and error) only as details.
    func testReasonsInPlainWordsWithLensdsWordsAsDetails() {
        let unreachable = "gpsd at 127.0.0.1:38251 is not reachable (can't connect to host/port pair); retrying in 1 s (need ≤ 50 m)"
        XCTAssertEqual(DisplayText.disabledReasons([.location, .enrollment], details: [.location: unreachable], fixAccuracy: nil,
                                                   maximumAccuracy: 50),
                       [GateReason(reason: .location, summary: "No location source", detail: unreachable),
                        GateReason(reason: .enrollment, summary: "This device is not enrolled", detail: nil)])
        XCTAssertEqual(DisplayText.disabledReasons([.location], details: [.location: "no fix yet (need ≤ 50 m)"], fixAccuracy: nil,
                                                   maximumAccuracy: 49.6).map(\.summary),
                       ["Waiting for a location fix of ± 50 m or better"])
        XCTAssertEqual(DisplayText.disabledReasons([.location], details: [.location: "850 m > 50 m: the fix is coarser than needed"],
                                                   fixAccuracy: 850.2, maximumAccuracy: 50).map(\.summary),
                       ["Location not accurate enough: ± 850 m, needs ± 50 m or better"])
        XCTAssertEqual(DisplayText.disabledReasons([LensCaptureStatus(rawValue: "future")], details: [:], fixAccuracy: nil,
                                                   maximumAccuracy: 50).map(\.summary),
                       ["Capture unavailable (future)"], "a reason this version does not know is still shown")
        XCTAssertEqual(DisplayText.location(accuracy: 3.99), "Location ± 4 m")
        XCTAssertEqual(DisplayText.location(accuracy: nil), "No location fix")
    }

    func testBusChoice() throws {
        guard case .system = try BusChoice.parse([]) else { return XCTFail("system by default") }
        guard case .session = try BusChoice.parse(["--bus", "session"]) else { return XCTFail("session") }
        guard case .address("unix:path=/tmp/b") = try BusChoice.parse(["--bus", "unix:path=/tmp/b"]) else { return XCTFail("address") }
        XCTAssertThrowsError(try BusChoice.parse(["--bus"]))
        XCTAssertThrowsError(try BusChoice.parse(["--frobnicate"]))
    }
}
