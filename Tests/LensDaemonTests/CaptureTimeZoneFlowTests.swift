import Foundation
import LensTestSupport
import XCTest

/// A photo records the wall time and offset of the zone lensd runs in (TZ, set here as a unit
/// file would set it, and read by the C library as at a process's start), as c2pa-python reads them.
final class CaptureTimeZoneFlowTests: DaemonTestCase {
    private let environment = ProcessEnvironment()

    override func setUpWithError() throws {
        environment.set(["TZ": "Asia/Kolkata"])
        tzset()
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        defer {
            environment.restore()
            tzset()
        }
        try super.tearDownWithError()
    }

    func testPhotoRecordsTheDaemonsLocalOffset() throws {
        let c = lensd.client()
        let name = try c.photo(in: try c.claimedSession()).name
        let verdict = try ReferenceValidator.assertTrusted(try lensd.storedFile(name), anchors: [try lensd.trustAnchorFile()])
        let metadata = try XCTUnwrap(verdict.metadata["c2pa.metadata"])
        XCTAssertEqual(metadata["exif:OffsetTimeOriginal"]?.string, "+05:30")
        let wallTime = try XCTUnwrap(metadata["exif:DateTimeOriginal"]?.string)
        XCTAssertTrue(wallTime.hasSuffix("+05:30"), wallTime)
    }
}
