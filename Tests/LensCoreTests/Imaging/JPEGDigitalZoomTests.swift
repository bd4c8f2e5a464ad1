@testable import LensCore
import LensImaging
import LensTestSupport
import XCTest

/// Digital zoom on a camera's JPEG: cut losslessly where TurboJPEG can, else decoded, zoomed
/// and encoded again, so the photo is still taken.
final class JPEGDigitalZoomTests: XCTestCase {
    /// FFmpeg's MJPEG encoder writes 4:2:2 as 2×2 luma and 1×2 chroma sampling (16×16 MCUs):
    /// TurboJPEG calls it 4:2:2 (16×8 MCUs), and asked for a corner on an 8-row boundary it
    /// crops from the 16-row one above, 8 rows taller than asked. Such a crop is refused, and
    /// the zoom re-encodes: the frame's centre scaled back to full size, at the quality given.
    func testAJPEGTurboJPEGCannotCropExactlyIsDecodedZoomedAndEncoded() throws {
        let source = try ffmpegJPEG(pixelFormat: "yuvj422p")
        XCTAssertThrowsError(try JPEGCodec.losslessCentreCrop(source, factor: 2)) {
            XCTAssertTrue("\($0)".contains("TurboJPEG cut 320×248, not 320×240"), "\($0)")
        }
        let decoded = try JPEGCodec.decodeRGB(source)

        let zoom = try JPEGCodec.digitalZoom(source, factor: 2, quality: 77)
        XCTAssertEqual(zoom.route, .reencoded)
        XCTAssertEqual([zoom.width, zoom.height], [640, 480])
        XCTAssertEqual(try JPEGCodec.dimensions(ofJPEG: zoom.jpeg).width, 640)
        let expected = decoded.rgb.withUnsafeBytes { DigitalZoom.cropAndScale($0, width: 640, height: 480, factor: 2) }
        let zoomed = try RGBImage(decoding: zoom.jpeg), unzoomed = RGBImage(rgb: decoded.rgb, width: 640, height: 480)
        let fromExpected = meanDifference(zoomed, RGBImage(rgb: expected, width: 640, height: 480))
        XCTAssertLessThan(fromExpected, 4, "the photo is the centre of the frame, twice as large")
        XCTAssertGreaterThan(meanDifference(zoomed, unzoomed), 10 * fromExpected, "the photo is zoomed")
        // Encoded at the quality asked for.
        XCTAssertLessThan(try JPEGCodec.digitalZoom(source, factor: 2, quality: 30).jpeg.count, zoom.jpeg.count)
        let atQuality = try expected.withUnsafeBytes { try JPEGCodec.encode(rgb: $0, width: 640, height: 480, quality: 77) }
        XCTAssertEqual(zoom.jpeg, atQuality)
    }

    /// TurboJPEG's own JPEGs, and FFmpeg's with standard 4:2:0 sampling, are cropped losslessly:
    /// the photo is the camera's bytes, 1/factor of the frame's size.
    func testJPEGsTurboJPEGCanCropTakeTheLosslessRoute() throws {
        let sources = [try RGBImage.gradient(width: 640, height: 480).encoded(), try ffmpegJPEG(pixelFormat: "yuvj420p")]
        for source in sources {
            let zoom = try JPEGCodec.digitalZoom(source, factor: 2, quality: 77)
            XCTAssertEqual(zoom.route, .losslessCrop)
            XCTAssertEqual([zoom.width, zoom.height], [320, 240])
            XCTAssertEqual(zoom.jpeg, try JPEGCodec.losslessCentreCrop(source, factor: 2).jpeg)
        }
    }

    func testBadFactorsAndBrokenJPEGsThrow() throws {
        let jpeg = try RGBImage.gradient(width: 64, height: 48).encoded()
        for factor in [0.5, .nan, .infinity] {
            XCTAssertThrowsError(try JPEGCodec.digitalZoom(jpeg, factor: factor, quality: 90), "\(factor)")
        }
        // Neither route can use a JPEG cut off halfway: the decoder's complaint fails the zoom.
        XCTAssertThrowsError(try JPEGCodec.digitalZoom(Array(jpeg.prefix(jpeg.count / 2)), factor: 2, quality: 90))
        XCTAssertThrowsError(try JPEGCodec.digitalZoom([0xFF, 0xD8, 0xFF, 0xD9], factor: 2, quality: 90))
    }

    /// One 640×480 frame of FFmpeg's test pattern, as FFmpeg's MJPEG encoder writes it.
    private func ffmpegJPEG(pixelFormat: String) throws -> [UInt8] {
        let result = try runProcess(["ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=640x480",
                                     "-frames:v", "1", "-pix_fmt", pixelFormat, "-c:v", "mjpeg", "-f", "image2pipe", "-"])
        guard result.status == 0 else { throw TestToolError("ffmpeg: " + String(decoding: result.stderr, as: UTF8.self)) }
        return Array(result.stdout)
    }

    private func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        Double(zip(a.rgb, b.rgb).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.rgb.count)
    }
}
