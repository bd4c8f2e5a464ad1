import LensCore
import LensImaging
import XCTest

/// Digital zoom on camera JPEGs: the crop is cut from the DCT blocks, so its pixels are the
/// original's, decoded — not a re-encoding.
final class JPEGLosslessCropTests: XCTestCase {
    func testCentreCropKeepsTheOriginalPixels() throws {
        let jpeg = try RGBImage.gradient(width: 640, height: 480).encoded()
        let original = try RGBImage(decoding: jpeg)
        let crop = try JPEGCodec.losslessCentreCrop(jpeg, factor: 2)
        XCTAssertEqual(crop.width, 320)
        XCTAssertEqual(crop.height, 240)
        let cropped = try RGBImage(decoding: crop.jpeg)
        XCTAssertEqual(cropped.width, 320)
        // 4:2:0 MCUs are 16×16: the corner is at (160, 112), the nearest MCU boundary up-left of centre.
        var largest = 0
        for y in 1..<(cropped.height - 1) {
            for x in 1..<(cropped.width - 1) {
                let a = cropped.pixel(x: x, y: y), b = original.pixel(x: x + 160, y: y + 112)
                largest = max(largest, abs(a.red - b.red), abs(a.green - b.green), abs(a.blue - b.blue))
            }
        }
        XCTAssertEqual(largest, 0, "a lossless crop decodes to the original's pixels")
    }

    func testFactorsBelowOneOrNotFiniteAreRefused() throws {
        let jpeg = try RGBImage.gradient(width: 64, height: 48).encoded()
        for factor in [0.5, .nan, .infinity] {
            XCTAssertThrowsError(try JPEGCodec.losslessCentreCrop(jpeg, factor: factor), "\(factor)")
        }
    }
}
