import Foundation
import LensTestSupport
import XCTest

/// A photo records the wall time and offset of the zone lensd runs in (TZ here), as c2pa-python reads them.
final class CaptureTimeZoneTests: LensdTestCase {
    override var daemonEnvironment: [String: String] { ["TZ": "Asia/Kolkata"] }

    func testPhotoRecordsTheDaemonsLocalOffset() throws {
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        let photo = try capture(c, s)
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [try c.trustAnchorFile(in: tmp)])
        let metadata = try XCTUnwrap(verdict.metadata["c2pa.metadata"])
        XCTAssertEqual(metadata["exif:OffsetTimeOriginal"]?.string, "+05:30")
        let wallTime = try XCTUnwrap(metadata["exif:DateTimeOriginal"]?.string)
        XCTAssertTrue(wallTime.hasSuffix("+05:30"), wallTime)
    }
}
