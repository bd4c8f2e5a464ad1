import Foundation
import LensCamera
import LensImaging
import LensMedia
import LensTestSupport
import XCTest
import LensCore

/// RGB and JPEG frames → I420 with BT.601 limited-range levels, checked against the standard's
/// formula in floating point and against TurboJPEG's own RGB decode.
final class PixelConversionTests: XCTestCase {
    /// ITU-R BT.601 with limited-range scaling, for full-range R, G, B.
    private func bt601(_ red: Double, _ green: Double, _ blue: Double) -> (y: Double, u: Double, v: Double) {
        (16 + (65.481 * red + 128.553 * green + 24.966 * blue) / 255,
         128 + (-37.797 * red - 74.203 * green + 112 * blue) / 255,
         128 + (112 * red - 93.786 * green - 18.214 * blue) / 255)
    }

    private func converted(_ image: RGBImage) -> I420Image {
        var i420 = I420Image(width: image.width, height: image.height)
        image.rgb.withUnsafeBytes { PixelConversion.convert(rgb: $0, width: image.width, height: image.height, into: &i420) }
        return i420
    }

    private func converted(jpeg: [UInt8], width: Int, height: Int) throws -> I420Image {
        var i420 = I420Image(width: width, height: height)
        try jpeg.withUnsafeBytes { try PixelConversion.convert(jpeg: $0, into: &i420) }
        return i420
    }

    private func assertPlanes(_ image: I420Image, y: Double, u: Double, v: Double, accuracy: Double,
                              _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        for (name, plane, expected) in [("Y", image.y, y), ("U", image.u, u), ("V", image.v, v)] {
            let worst = plane.map { abs(Double($0) - expected) }.max() ?? .infinity
            XCTAssertLessThanOrEqual(worst, accuracy, "\(message): \(name) is off by up to \(worst) from \(expected)", file: file, line: line)
        }
    }

    func testKnownColoursGiveBT601LimitedRangeLevels() {
        let colours: [(String, UInt8, UInt8, UInt8)] = [("white", 255, 255, 255), ("black", 0, 0, 0), ("red", 255, 0, 0),
                                                        ("green", 0, 255, 0), ("blue", 0, 0, 255), ("skin", 200, 150, 120)]
        for (name, red, green, blue) in colours {
            let expected = bt601(Double(red), Double(green), Double(blue))
            assertPlanes(converted(.solid(width: 8, height: 6, red, green, blue)), y: expected.y, u: expected.u, v: expected.v,
                         accuracy: 1, name)
        }
        // The ends of the ranges exactly: what decoders treat as black, white and full red.
        let white = converted(.solid(width: 2, height: 2, 255, 255, 255)), black = converted(.solid(width: 2, height: 2, 0, 0, 0))
        XCTAssertEqual([white.y[0], white.u[0], white.v[0]], [235, 128, 128])
        XCTAssertEqual([black.y[0], black.u[0], black.v[0]], [16, 128, 128])
        XCTAssertEqual(converted(.solid(width: 2, height: 2, 255, 0, 0)).v[0], 240)
        XCTAssertEqual(converted(.solid(width: 2, height: 2, 0, 0, 255)).u[0], 240)
    }

    func testGreyRampMapsOntoSixteenToTwoThirtyFiveWithNeutralChroma() {
        let ramp = converted(.filled(width: 256, height: 2) { x, _ in (UInt8(x), UInt8(x), UInt8(x)) })
        for x in 0..<256 {
            XCTAssertEqual(Double(ramp.y[x]), 16 + Double(x) * 219 / 255, accuracy: 1, "grey \(x)")
        }
        XCTAssertEqual(Set(ramp.u + ramp.v), [128])
    }

    func testChromaAveragesEach2x2BlockWhileLumaStaysPerPixel() {
        // One red pixel in the top-left of each block of four, the rest white.
        let image = RGBImage.filled(width: 4, height: 4) { x, y in x % 2 == 0 && y % 2 == 0 ? (255, 0, 0) : (255, 255, 255) }
        let i420 = converted(image)
        let red = bt601(255, 0, 0), white = bt601(255, 255, 255)
        XCTAssertEqual(Double(i420.y[0]), red.y, accuracy: 1)
        XCTAssertEqual(Double(i420.y[1]), white.y, accuracy: 1)
        XCTAssertEqual(Double(i420.y[4]), white.y, accuracy: 1)
        for (u, v) in zip(i420.u, i420.v) {
            XCTAssertEqual(Double(u), (red.u + 3 * white.u) / 4, accuracy: 1)
            XCTAssertEqual(Double(v), (red.v + 3 * white.v) / 4, accuracy: 1)
        }
    }

    func testOddSizesDropTheLastRowAndColumn() {
        let image = RGBImage.filled(width: 5, height: 3) { x, y in x == 4 || y == 2 ? (255, 0, 255) : (90, 90, 90) }
        let i420 = converted(image)
        XCTAssertEqual(i420.width, 4)
        XCTAssertEqual(i420.height, 2)
        let grey = bt601(90, 90, 90)
        assertPlanes(i420, y: grey.y, u: 128, v: 128, accuracy: 1, "grey without the magenta edge")
    }

    func testFlatJPEGsOfEverySubsamplingMatchTheirColourConvertedFromRGB() throws {
        let dir = try TemporaryDirectory()
        for subsampling in [TestJPEG.Subsampling.s420, .s422, .s444] {
            let colours: [(red: UInt8, green: UInt8, blue: UInt8)] = [(200, 50, 80), (30, 160, 220)]
            for colour in colours {
                // 65×49: the last odd column and row are dropped here too.
                let url = try TestJPEG.make(at: dir.file("flat.jpg"), width: 65, height: 49, subsampling: subsampling, color: colour)
                let fromJPEG = try converted(jpeg: [UInt8](try Data(contentsOf: url)), width: 65, height: 49)
                let fromRGB = converted(.solid(width: 65, height: 49, colour.red, colour.green, colour.blue))
                XCTAssertEqual(fromJPEG.width, 64)
                XCTAssertEqual(fromJPEG.height, 48)
                assertPlanes(fromJPEG, y: Double(fromRGB.y[0]), u: Double(fromRGB.u[0]), v: Double(fromRGB.v[0]), accuracy: 3,
                             "\(subsampling) \(colour)")
            }
        }
    }

    func testGreyscaleJPEGHasNeutralChroma() throws {
        let dir = try TemporaryDirectory()
        let url = try TestJPEG.make(at: dir.file("grey.jpg"), width: 64, height: 48, subsampling: .grey, color: (120, 120, 120))
        let i420 = try converted(jpeg: [UInt8](try Data(contentsOf: url)), width: 64, height: 48)
        assertPlanes(i420, y: bt601(120, 120, 120).y, u: 128, v: 128, accuracy: 2, "grey 120")
    }

    /// Chroma that varies across and down the picture: a plane resampled along the wrong axis,
    /// or shifted by a sample, shows as a difference from converting TurboJPEG's RGB decode.
    func testGradientJPEGsMatchTheirOwnRGBDecode() throws {
        let dir = try TemporaryDirectory()
        for subsampling in [TestJPEG.Subsampling.s420, .s422, .s444, .grey] {
            let url = try TestJPEG.make(at: dir.file("gradient.jpg"), width: 160, height: 120, subsampling: subsampling, noise: 0)
            let jpeg = [UInt8](try Data(contentsOf: url))
            let direct = try converted(jpeg: jpeg, width: 160, height: 120)
            let viaRGB = converted(try RGBImage(decoding: jpeg))
            for (name, a, b) in [("Y", direct.y, viaRGB.y), ("U", direct.u, viaRGB.u), ("V", direct.v, viaRGB.v)] {
                let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
                let mean = Double(differences.reduce(0, +)) / Double(differences.count)
                XCTAssertLessThan(mean, 1, "\(subsampling) \(name): mean difference \(mean)")
                XCTAssertLessThanOrEqual(differences.max() ?? 0, 4, "\(subsampling) \(name)")
            }
        }
    }

    func testBrokenJPEGsThrow() throws {
        let jpeg = try RGBImage.gradient(width: 64, height: 48).encoded()
        var badMarker = jpeg
        let sof = try XCTUnwrap((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        badMarker[sof + 2] = 0xFF   // SOF length now far beyond the file
        let cases: [(String, [UInt8])] = [("truncated", Array(jpeg.prefix(jpeg.count * 2 / 3))), ("bad SOF length", badMarker),
                                          ("not a JPEG", [UInt8](repeating: 0x42, count: 500)), ("empty", [])]
        for (name, bytes) in cases {
            var image = I420Image(width: 64, height: 48)
            XCTAssertThrowsError(try bytes.withUnsafeBytes { try PixelConversion.convert(jpeg: $0, into: &image) }, name) {
                XCTAssertTrue($0 is ImagingError, "\(name): \($0)")
            }
        }
        var wrongSize = I420Image(width: 32, height: 24)
        XCTAssertThrowsError(try jpeg.withUnsafeBytes { try PixelConversion.convert(jpeg: $0, into: &wrongSize) })
    }

    func testVideoFramesConvertWhicheverFormTheyCome() throws {
        let rgb = RGBImage.solid(width: 64, height: 48, 200, 150, 120)
        let jpeg = try rgb.encoded(quality: 95)
        let expected = converted(rgb)
        for pixels in ["rgb", "jpeg"] {
            var image = I420Image(width: 64, height: 48)
            try (pixels == "rgb" ? rgb.rgb : jpeg).withUnsafeBytes { bytes in
                let frame = VideoFrame(pixels: pixels == "rgb" ? .rgb(bytes) : .jpeg(bytes), width: 64, height: 48, timestamp: 0, sequence: 0)
                try PixelConversion.convert(frame, into: &image)
            }
            assertPlanes(image, y: Double(expected.y[0]), u: Double(expected.u[0]), v: Double(expected.v[0]), accuracy: 3, pixels)
        }
        try rgb.rgb.withUnsafeBytes { bytes in
            var image = I420Image(width: 64, height: 48)
            let tooShort = VideoFrame(pixels: .rgb(UnsafeRawBufferPointer(rebasing: bytes[..<100])), width: 64, height: 48,
                                      timestamp: 0, sequence: 0)
            XCTAssertThrowsError(try PixelConversion.convert(tooShort, into: &image))
            var wrongSize = I420Image(width: 32, height: 48)
            let frame = VideoFrame(pixels: .rgb(bytes), width: 64, height: 48, timestamp: 0, sequence: 0)
            XCTAssertThrowsError(try PixelConversion.convert(frame, into: &wrongSize))
        }
    }
}
