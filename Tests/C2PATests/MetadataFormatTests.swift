import LensTestSupport
import XCTest
@testable import C2PA

final class MetadataFormatTests: XCTestCase {
    func testCoordinatesUseXMPForm() {
        XCTAssertEqual(MetadataAssertion.coordinate(52.52008, positive: "N", negative: "S"), "52,31.204800N")
        XCTAssertEqual(MetadataAssertion.coordinate(-33.8568, positive: "N", negative: "S"), "33,51.408000S")
        XCTAssertEqual(MetadataAssertion.coordinate(-0.0001, positive: "E", negative: "W"), "0,00.006000W")
        XCTAssertEqual(MetadataAssertion.coordinate(179.9999999999, positive: "E", negative: "W"), "180,00.000000E")
        XCTAssertEqual(MetadataAssertion.coordinate(179.99999999, positive: "E", negative: "W"), "179,59.999999E")
        XCTAssertEqual(MetadataAssertion.coordinate(48.0845, positive: "N", negative: "S"), "48,05.070000N")
    }

    func testCoordinatesReadBackToTheSameDegrees() {
        for value in [52.52008, -33.8568, -0.0001, 0.0, 179.9999, -179.9999, 48.0845, -70.123456] {
            let text = MetadataAssertion.coordinate(value, positive: "E", negative: "W")
            XCTAssertEqual(VerificationReport.coordinate(text)!, value, accuracy: 1e-7, text)
        }
    }

    func testDateTimeCarriesTheOffset() {
        let date = Date(timeIntervalSince1970: 1_795_953_600) // 2026-11-29T12:00:00Z
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        XCTAssertEqual(Timestamps.iso8601(date, in: berlin), "2026-11-29T13:00:00+01:00")
        XCTAssertEqual(Timestamps.offset(of: date, in: TimeZone(secondsFromGMT: -5 * 3600 - 1800)!), "-05:30")
        XCTAssertEqual(Timestamps.exifDateUTC(date), "2026:11:29")
    }

    func testTwoDimensionalFixWritesNoAltitude() throws {
        let fix = GeoLocation(latitude: 1, longitude: 2, horizontalError: 95, fixTime: Date())
        let fields = MetadataAssertion(CaptureMetadata(captureTime: Date(), make: "m", model: "n", location: fix)).fields()
        XCTAssertNil(fields["exif:GPSAltitude"])
        XCTAssertNil(fields["exif:GPSAltitudeRef"])
        XCTAssertEqual(fields["exif:GPSHPositioningError"] as? String, "9500/100")
        XCTAssertNil(fields["exif:GPSProcessingMethod"])
    }
}
