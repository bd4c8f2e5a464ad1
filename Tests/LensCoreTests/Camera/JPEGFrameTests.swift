@testable import LensCamera
@testable import LensCore
import XCTest

/// Camera JPEGs are kept as they are, minus the padding some drivers count as used.
final class JPEGFrameTests: XCTestCase {
    func testTrimsPaddingAfterTheLastEOI() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9, 0x01, 0xFF, 0xD9]
        let padded = jpeg + [UInt8](repeating: 0, count: 100)
        XCTAssertEqual(try padded.withUnsafeBytes { try JPEGFrame.trimmed($0) }, jpeg)
    }

    func testRejectsNonJPEGAndTruncatedFrames() {
        XCTAssertThrowsError(try [UInt8](repeating: 0, count: 16).withUnsafeBytes { try JPEGFrame.trimmed($0) })
        XCTAssertThrowsError(try ([0xFF, 0xD8] + [UInt8](repeating: 1, count: 16)).withUnsafeBytes { try JPEGFrame.trimmed($0) })
    }
}
