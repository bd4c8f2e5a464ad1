import LensTestSupport
import XCTest
@testable import C2PA
@testable import C2PAEncoding

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

    /// Written with the C library's arithmetic, they read as Foundation's formats and calendar
    /// (ICU) write them: a leap day, the last millisecond of a year, 1970, 2100, both sides of UTC.
    func testDatesMatchFoundationsFormats() {
        let dates = [0, 951_782_400.5, 1_795_953_600.123, 1_798_761_599.999, 4_107_542_400.0004].map(Date.init(timeIntervalSince1970:))
        var calendar = Calendar(identifier: .gregorian)
        for date in dates {
            XCTAssertEqual(Timestamps.rfc3339UTC(date), date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)))
            for zone in ["Asia/Kolkata", "America/St_Johns", "Pacific/Kiritimati", "UTC"].compactMap(TimeZone.init(identifier:)) {
                calendar.timeZone = zone
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
                XCTAssertEqual(Timestamps.iso8601(date, in: zone), expected + Timestamps.offset(of: date, in: zone), "\(date) in \(zone)")
            }
            calendar.timeZone = .gmt
            let utc = calendar.dateComponents([.year, .month, .day], from: date)
            XCTAssertEqual(Timestamps.exifDateUTC(date), String(format: "%04d:%02d:%02d", utc.year!, utc.month!, utc.day!))
        }
    }

    /// Byte-ordered keys, escapes, integral numbers; it reads back as written, and a number JSON
    /// cannot hold is refused.
    func testJSONWriting() throws {
        let value = JSONValue.object([
            "tiff:Model": .string("a \"quoted\" \\ path/with\nlines\u{1}"), "@context": .object(["b": .null, "a": .bool(true)]),
            "exif:GPSAltitudeRef": .number(1), "ratio": .number(0.25), "list": .array([.number(-3), .string("é")]),
        ])
        let written = try value.serialized()
        XCTAssertEqual(String(decoding: written, as: UTF8.self),
                       #"{"@context":{"a":true,"b":null},"exif:GPSAltitudeRef":1,"list":[-3,"é"],"ratio":0.25,"#
                       + #""tiff:Model":"a \"quoted\" \\ path/with\nlines\u0001"}"#)
        XCTAssertEqual(try JSONValue(parsing: written), value)
        XCTAssertThrowsError(try JSONValue.number(.nan).serialized())
    }

    func testTwoDimensionalFixWritesNoAltitude() throws {
        let fix = GeoLocation(latitude: 1, longitude: 2, horizontalError: 95, fixTime: Date())
        let fields = MetadataAssertion(CaptureMetadata(captureTime: Date(), make: "m", model: "n", location: fix)).fields()
        XCTAssertNil(fields["exif:GPSAltitude"])
        XCTAssertNil(fields["exif:GPSAltitudeRef"])
        XCTAssertEqual(fields["exif:GPSHPositioningError"]?.stringValue, "9500/100")
        XCTAssertNil(fields["exif:GPSProcessingMethod"])
    }
}
