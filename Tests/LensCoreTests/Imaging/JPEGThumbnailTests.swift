import LensImaging
import XCTest
import LensCore

final class JPEGThumbnailTests: XCTestCase {
    private func assertFits(_ thumbnail: [UInt8], within maxSide: Int, sourceWidth: Int, sourceHeight: Int,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let size = try JPEGCodec.dimensions(ofJPEG: thumbnail)
        XCTAssertLessThanOrEqual(max(size.width, size.height), maxSide, file: file, line: line)
        let aspect = Double(sourceWidth) / Double(sourceHeight)
        // Rounding to whole pixels moves the aspect by at most half a pixel on the short side.
        let tolerance = aspect / Double(min(size.width, size.height)) + 0.001
        XCTAssertEqual(Double(size.width) / Double(size.height), aspect, accuracy: tolerance, file: file, line: line)
    }

    func testRawFrameThumbnailFitsAndKeepsAspect() throws {
        for (width, height) in [(1920, 1080), (1000, 3000), (641, 479)] {
            let image = RGBImage.gradient(width: width, height: height)
            let thumbnail = try image.rgb.withUnsafeBytes {
                try JPEGCodec.thumbnail(rgb: $0, width: width, height: height, maxSide: 320, quality: 80)
            }
            try assertFits(thumbnail, within: 320, sourceWidth: width, sourceHeight: height)
            XCTAssertEqual(max(try JPEGCodec.dimensions(ofJPEG: thumbnail).width,
                               try JPEGCodec.dimensions(ofJPEG: thumbnail).height), 320)
        }
    }

    func testCameraJPEGThumbnailFitsAndKeepsAspect() throws {
        for (width, height) in [(1920, 1080), (1080, 1920), (4000, 3000), (1280, 720)] {
            let jpeg = try RGBImage.gradient(width: width, height: height).encoded()
            let thumbnail = try JPEGCodec.thumbnail(fromJPEG: jpeg, maxSide: 320, quality: 80)
            try assertFits(thumbnail, within: 320, sourceWidth: width, sourceHeight: height)
        }
    }

    func testThumbnailsOfBothPathsAgreeInSizeAndColour() throws {
        let image = RGBImage.gradient(width: 1920, height: 1080)
        let fromRaw = try RGBImage(decoding: image.rgb.withUnsafeBytes {
            try JPEGCodec.thumbnail(rgb: $0, width: 1920, height: 1080, maxSide: 320, quality: 80)
        })
        let fromJPEG = try RGBImage(decoding: JPEGCodec.thumbnail(fromJPEG: image.encoded(), maxSide: 320, quality: 80))
        XCTAssertEqual(fromRaw.width, 320)
        XCTAssertEqual(fromRaw.height, 180)
        XCTAssertEqual(fromJPEG.width, 320)
        XCTAssertEqual(fromJPEG.height, 180)
        XCTAssertEqual(fromJPEG.meanColor.red, fromRaw.meanColor.red, accuracy: 3)
        XCTAssertEqual(fromJPEG.meanColor.green, fromRaw.meanColor.green, accuracy: 3)
    }

    func testSmallImagesAreNotUpscaled() throws {
        let image = RGBImage.gradient(width: 200, height: 100)
        let fromRaw = try image.rgb.withUnsafeBytes {
            try JPEGCodec.thumbnail(rgb: $0, width: 200, height: 100, maxSide: 320, quality: 80)
        }
        let fromJPEG = try JPEGCodec.thumbnail(fromJPEG: image.encoded(), maxSide: 320, quality: 80)
        XCTAssertEqual(try JPEGCodec.dimensions(ofJPEG: fromRaw).width, 200)
        XCTAssertEqual(try JPEGCodec.dimensions(ofJPEG: fromJPEG).width, 200)
    }

    func testBoxDownscaleAveragesColour() throws {
        // Alternating black and white columns average to mid-grey; sampling would give one or the other.
        let width = 640, height = 480
        let stripes = RGBImage.filled(width: width, height: height) { x, _ in x % 2 == 0 ? (0, 0, 0) : (255, 255, 255) }
        let thumbnail = try RGBImage(decoding: stripes.rgb.withUnsafeBytes {
            try JPEGCodec.thumbnail(rgb: $0, width: width, height: height, maxSide: 320, quality: 95)
        })
        XCTAssertEqual(thumbnail.meanLuma, 127.5, accuracy: 3)
        XCTAssertEqual(Double(thumbnail.pixel(x: 100, y: 100).red), 127.5, accuracy: 4)
    }

    func testNonPositiveMaxSideThrows() throws {
        let image = RGBImage.gradient(width: 32, height: 32)
        XCTAssertThrowsError(try JPEGCodec.thumbnail(fromJPEG: image.encoded(), maxSide: 0, quality: 80))
        try image.rgb.withUnsafeBytes { rgb in
            XCTAssertThrowsError(try JPEGCodec.thumbnail(rgb: rgb, width: 32, height: 32, maxSide: -1, quality: 80))
        }
    }
}
