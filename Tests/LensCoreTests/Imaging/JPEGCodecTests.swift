import LensImaging
import XCTest
import LensCore

final class JPEGCodecTests: XCTestCase {
    func testRoundTripKeepsSizeAndColour() throws {
        // Odd sizes exercise the partial MCUs at the right and bottom edges.
        let original = RGBImage.gradient(width: 317, height: 211)
        let jpeg = try original.encoded(quality: 90)
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual(Array(jpeg.suffix(2)), [0xFF, 0xD9])

        let decoded = try RGBImage(decoding: jpeg)
        XCTAssertEqual(decoded.width, 317)
        XCTAssertEqual(decoded.height, 211)
        XCTAssertEqual(decoded.meanColor.red, original.meanColor.red, accuracy: 2)
        XCTAssertEqual(decoded.meanColor.green, original.meanColor.green, accuracy: 2)
        XCTAssertEqual(decoded.meanColor.blue, original.meanColor.blue, accuracy: 2)
    }

    func testSolidColourSurvives() throws {
        let decoded = try RGBImage(decoding: RGBImage.solid(width: 64, height: 48, 200, 100, 50).encoded())
        XCTAssertEqual(decoded.meanColor.red, 200, accuracy: 3)
        XCTAssertEqual(decoded.meanColor.green, 100, accuracy: 3)
        XCTAssertEqual(decoded.meanColor.blue, 50, accuracy: 3)
    }

    func testDimensionsComeFromTheHeader() throws {
        let jpeg = try RGBImage.gradient(width: 640, height: 360).encoded()
        let size = try JPEGCodec.dimensions(ofJPEG: jpeg)
        XCTAssertEqual(size.width, 640)
        XCTAssertEqual(size.height, 360)
    }

    func testLowerQualityMakesSmallerFiles() throws {
        let image = RGBImage.gradient(width: 320, height: 240)
        XCTAssertLessThan(try image.encoded(quality: 20).count, try image.encoded(quality: 95).count)
    }

    func testEncodeRejectsBadArguments() throws {
        let image = RGBImage.solid(width: 16, height: 16, 1, 2, 3)
        try image.rgb.withUnsafeBytes { rgb in
            XCTAssertThrowsError(try JPEGCodec.encode(rgb: rgb, width: 16, height: 16, quality: 0))
            XCTAssertThrowsError(try JPEGCodec.encode(rgb: rgb, width: 16, height: 16, quality: 101))
            XCTAssertThrowsError(try JPEGCodec.encode(rgb: rgb, width: 0, height: 16, quality: 90))
            XCTAssertThrowsError(try JPEGCodec.encode(rgb: rgb, width: 16, height: 17, quality: 90)) { error in
                XCTAssertTrue("\(error)".contains("cannot hold"), "\(error)")
            }
        }
    }
}
