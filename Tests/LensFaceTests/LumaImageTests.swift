import LensFace
import XCTest

/// RGB and BGRA input turn into the luma plane OpenCV's cvtColor makes; bad sizes are refused.
final class LumaImageTests: XCTestCase {
    func testRGBAndBGRAGiveOpenCVsGrey() throws {
        // Values from cv2.cvtColor(…, COLOR_RGB2GRAY) on these pixels.
        let rgb: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 200, 30]
        let luma = try LumaImage(rgb: rgb, width: 2, height: 2)
        XCTAssertEqual(luma.pixels, [76, 150, 29, 124])
        let bgra: [UInt8] = [0, 0, 255, 9, 0, 255, 0, 9, 255, 0, 0, 9, 30, 200, 10, 9]
        XCTAssertEqual(try LumaImage(bgra: bgra, width: 2, height: 2), luma)
    }

    func testBadSizesAreRefused() {
        XCTAssertThrowsError(try LumaImage(width: 0, height: 10, pixels: [])) {
            XCTAssertTrue("\($0)".contains("image size 0×10"), "\($0)")
        }
        XCTAssertThrowsError(try LumaImage(rgb: [1, 2, 3], width: 2, height: 1)) {
            XCTAssertTrue("\($0)".contains("3 bytes cannot hold 2×1 pixels"), "\($0)")
        }
    }
}
