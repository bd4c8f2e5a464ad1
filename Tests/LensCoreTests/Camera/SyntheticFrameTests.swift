import LensCamera
import XCTest
import LensCore

/// What the synthetic camera draws, measured in the JPEG it delivers (the bytes that get signed).
final class SyntheticFrameTests: XCTestCase {
    func testConsecutivePhotosAreDifferentFrames() throws {
        let camera = SyntheticCamera(width: 640, height: 360)
        try camera.open()
        defer { camera.close() }
        let first = try camera.capturePhoto(), second = try camera.capturePhoto()
        XCTAssertGreaterThan(second.frameNumber, first.frameNumber)
        XCTAssertGreaterThan(second.captureTime, first.captureTime)
        let changed = try RGBImage(decoding: second.jpeg).differingPixels(from: RGBImage(decoding: first.jpeg))
        XCTAssertGreaterThan(changed, 1000, "the sweeping bar moved and the counter changed")
    }

    func testMarkerDoublesAtTwiceTheZoom() throws {
        let camera = SyntheticCamera(width: 1920, height: 1080)
        try camera.open()
        defer { camera.close() }
        let unzoomed = try RGBImage(decoding: camera.capturePhoto().jpeg).markerSize
        try camera.setZoom(2)
        let photo = try camera.capturePhoto()
        let zoomed = try RGBImage(decoding: photo.jpeg).markerSize

        XCTAssertEqual(Double(unzoomed.width), 1080 / 8, accuracy: 3, "marker side is height/8")
        XCTAssertEqual(Double(unzoomed.height), 1080 / 8, accuracy: 3)
        XCTAssertEqual(Double(zoomed.width) / Double(unzoomed.width), 2, accuracy: 0.1)
        XCTAssertEqual(Double(zoomed.height) / Double(unzoomed.height), 2, accuracy: 0.1)
        XCTAssertEqual(photo.digitalZoomRatio, 2)
    }

    func testStampCarriesFrameNumberAndClock() throws {
        // 1_700_000_000 s is 22:13:20 UTC; .125 is exact in binary, so the milliseconds are too.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000.125))
        let camera = SyntheticCamera(width: 1280, height: 720, clock: { clock.read() })
        try camera.open()
        defer { camera.close() }

        let first = try camera.capturePhoto()
        XCTAssertEqual(try RGBImage(decoding: first.jpeg).stampLines(lengths: [7, 13]), ["#000000", "22:13:20.125Z"])

        clock.advance(by: 61.5)
        try camera.setZoom(3)
        let later = try camera.capturePhoto()
        XCTAssertEqual(later.frameNumber, 1845)
        XCTAssertEqual(try RGBImage(decoding: later.jpeg).stampLines(lengths: [7, 13]), ["#001845", "22:14:21.625Z"],
                       "the stamp is drawn after zoom, so it stays readable")
    }

    func testFlashOnBrightensTheSceneVisibly() throws {
        let camera = SyntheticCamera(width: 640, height: 360)
        try camera.open()
        defer { camera.close() }
        let dark = try RGBImage(decoding: camera.capturePhoto().jpeg)
        try camera.setFlashMode(.on)
        let lit = try RGBImage(decoding: camera.capturePhoto().jpeg)
        try camera.setFlashMode(.auto)
        let auto = try RGBImage(decoding: camera.capturePhoto().jpeg)

        XCTAssertGreaterThan(lit.meanLuma, dark.meanLuma + 20)
        XCTAssertEqual(auto.meanLuma, dark.meanLuma, accuracy: 3, "the synthetic scene is lit, so auto does not fire")
        XCTAssertEqual(lit.markerSize.width, dark.markerSize.width, accuracy: 2, "the marker stays pure red")
    }
}
