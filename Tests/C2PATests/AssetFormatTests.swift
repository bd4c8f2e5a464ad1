import LensTestSupport
import C2PA
import Foundation
import XCTest

/// `AssetFormat` is the one place that tells a JPEG from an MP4: by a file's first bytes, by its
/// media type, and for the file at a path; anything else is no format.
final class AssetFormatTests: XCTestCase {
    func testFormatsAreToldApartByTheirFirstBytes() throws {
        let tmp = try TemporaryDirectory()
        let jpeg = try TestJPEG.make(at: tmp.file("a.jpg"))
        let mp4 = try TestMP4.make(at: tmp.file("a.mp4"), .mjpeg, seconds: 1)
        XCTAssertEqual(try AssetFormat(fileAt: jpeg.path), .jpeg)
        XCTAssertEqual(try AssetFormat(fileAt: mp4.path), .bmff)
        XCTAssertEqual(AssetFormat(head: [0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(AssetFormat(head: Array("\0\0\0\u{18}ftypisom".utf8)), .bmff)
        // PNG, a truncated JPEG marker, "ftyp" at the wrong offset, nothing at all.
        for head in [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], [0xFF], Array("ftypisom".utf8), []] as [[UInt8]] {
            XCTAssertNil(AssetFormat(head: head), "\(head)")
        }
        try Data("plain text".utf8).write(to: tmp.file("a.txt"))
        XCTAssertNil(try AssetFormat(fileAt: tmp.file("a.txt").path))
        XCTAssertThrowsError(try AssetFormat(fileAt: tmp.file("missing").path))
    }

    func testMediaTypesNameTheirFormat() {
        XCTAssertEqual(AssetFormat(mediaType: "image/jpeg"), .jpeg)
        XCTAssertEqual(AssetFormat(mediaType: "Video/MP4; codecs=avc1"), .bmff)
        XCTAssertNil(AssetFormat(mediaType: "image/png"))
        XCTAssertNil(AssetFormat(mediaType: "video/x-motion-jpeg"))
        XCTAssertEqual(AssetFormat.jpeg.mediaType, "image/jpeg")
        XCTAssertEqual(AssetFormat.bmff.mediaType, "video/mp4")
        XCTAssertEqual([AssetFormat.jpeg, .bmff].map(\.fileExtension), ["jpg", "mp4"])
        XCTAssertEqual([AssetFormat.jpeg, .bmff].map(\.isVideo), [false, true])
    }
}
