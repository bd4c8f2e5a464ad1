import LensCamera
import LensImaging
import XCTest
import LensCore

/// The synthetic camera's state and controls, as CurrentDevice and the control methods see them.
final class SyntheticCameraTests: XCTestCase {
    private func makeCamera(supportedFlashModes: [FlashMode] = FlashMode.allCases) -> SyntheticCamera {
        SyntheticCamera(width: 320, height: 240, position: .front, supportedFlashModes: supportedFlashModes)
    }

    func testStateDescribesAVirtualSyntheticDevice() {
        let state = makeCamera().state
        XCTAssertEqual(state.description, CameraDescription(
            path: "synthetic:front", name: "lensd synthetic camera", driver: "lensd", busInfo: "synthetic",
            position: .front, isVirtual: true, formats: ["RGB3"]))
        XCTAssertTrue(state.hasFlash)
        XCTAssertTrue(state.isFlashAvailable)
        XCTAssertEqual(state.flashMode, .off)
        XCTAssertEqual(state.supportedFlashModes, [.off, .on, .auto])
        XCTAssertTrue(state.canZoom)
        XCTAssertTrue(state.digitalZoom)
        XCTAssertEqual(state.zoomFactor, 1)
        XCTAssertEqual(state.maxZoomFactor, 8)
        XCTAssertTrue(state.canFocus)
    }

    func testPhotoSaysItIsSynthetic() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let camera = SyntheticCamera(width: 640, height: 360, clock: { start })
        try camera.open()
        defer { camera.close() }
        let photo = try camera.capturePhoto()
        XCTAssertEqual(photo.model, "lensd synthetic camera")
        XCTAssertEqual(photo.model, SyntheticCamera.model)
        XCTAssertEqual(photo.make, "lensd")
        XCTAssertTrue(photo.isSynthetic)
        XCTAssertNil(photo.digitalZoomRatio)
        XCTAssertEqual(photo.captureTime, start)
        XCTAssertEqual(photo.width, 640)
        XCTAssertEqual(photo.height, 360)
        let size = try JPEGCodec.dimensions(ofJPEG: photo.jpeg)
        XCTAssertEqual(size.width, 640)
        XCTAssertEqual(size.height, 360)
        let thumbnail = try JPEGCodec.dimensions(ofJPEG: photo.thumbnail)
        XCTAssertEqual(thumbnail.width, 320)
        XCTAssertEqual(thumbnail.height, 180)
    }

    func testCaptureNeedsAnOpenCameraAndCloseIsIdempotent() throws {
        let camera = makeCamera()
        XCTAssertThrowsError(try camera.capturePhoto()) { error in
            guard case .failed = error as? CameraError else { return XCTFail("\(error)") }
        }
        try camera.open()
        try camera.open()
        XCTAssertNoThrow(try camera.capturePhoto())
        camera.close()
        camera.close()
        XCTAssertThrowsError(try camera.capturePhoto())
    }

    func testZoomRejectsInvalidFactorsAndClamps() throws {
        let camera = makeCamera()
        for factor in [Double.nan, 0.5, 0, -2, .infinity, -.infinity] {
            XCTAssertThrowsError(try camera.setZoom(factor), "\(factor)") { error in
                guard case .invalidArgument = error as? CameraError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(camera.state.zoomFactor, 1, "a rejected factor changes nothing")
        XCTAssertEqual(try camera.setZoom(2.5), 2.5)
        XCTAssertEqual(try camera.setZoom(100), 8)
        XCTAssertEqual(camera.state.zoomFactor, 8)
        XCTAssertEqual(try camera.setZoom(1), 1)
    }

    func testZoomedPhotoReportsItsRatio() throws {
        let camera = makeCamera()
        try camera.open()
        defer { camera.close() }
        try camera.setZoom(2.5)
        XCTAssertEqual(try camera.capturePhoto().digitalZoomRatio, 2.5)
    }

    func testFocusAcceptsOnlyNormalizedPointsAndRecordsThem() throws {
        let camera = makeCamera()
        for (x, y) in [(-0.1, 0.5), (0.5, 1.1), (Double.nan, 0.5), (0.5, .infinity)] {
            XCTAssertThrowsError(try camera.focus(atX: x, y: y), "(\(x), \(y))") { error in
                guard case .invalidArgument = error as? CameraError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertNil(camera.focusPoint)
        let used = try camera.focus(atX: 0.25, y: 0.75)
        XCTAssertEqual(used.x, 0.25)
        XCTAssertEqual(used.y, 0.75)
        XCTAssertEqual(camera.focusPoint?.x, 0.25)
        XCTAssertEqual(camera.focusPoint?.y, 0.75)
        XCTAssertNoThrow(try camera.focus(atX: 0, y: 1), "the edges are inside")
    }

    func testFlashModesCycle() throws {
        let camera = makeCamera()
        for mode in [FlashMode.on, .auto, .off, .on] {
            try camera.setFlashMode(mode)
            XCTAssertEqual(camera.state.flashMode, mode)
        }
        XCTAssertNil(FlashMode(rawValue: "strobe"), "wire strings outside off|on|auto do not parse")
        XCTAssertEqual(FlashMode.allCases.map(\.rawValue), ["off", "on", "auto"])
    }

    func testModeOutsideSupportedModesIsInvalidAndChangesNothing() throws {
        let camera = makeCamera(supportedFlashModes: [.off, .on])
        try camera.setFlashMode(.on)
        XCTAssertThrowsError(try camera.setFlashMode(.auto)) { error in
            guard case .invalidArgument = error as? CameraError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(camera.state.flashMode, .on)
    }

    func testCameraWithoutFlashSaysUnsupported() {
        let camera = makeCamera(supportedFlashModes: [])
        XCTAssertFalse(camera.state.hasFlash)
        XCTAssertFalse(camera.state.isFlashAvailable)
        XCTAssertEqual(camera.state.supportedFlashModes, [])
        XCTAssertThrowsError(try camera.setFlashMode(.on)) { error in
            XCTAssertEqual(error as? CameraError, .unsupported("this synthetic camera has no flash"))
        }
    }

    func testFrameNumbersFollowTheClockAndNeverRepeat() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let camera = SyntheticCamera(width: 64, height: 48, frameRate: 30, clock: { clock.read() })
        try camera.open()
        defer { camera.close() }
        var frame = [UInt8](repeating: 0, count: camera.frameByteCount)

        XCTAssertEqual(frame.withUnsafeMutableBytes { camera.renderFrame(into: $0) }.frameNumber, 0)
        clock.advance(by: 1.0)
        XCTAssertEqual(frame.withUnsafeMutableBytes { camera.renderFrame(into: $0) }.frameNumber, 30)
        clock.advance(by: 0.05)
        let rendered = frame.withUnsafeMutableBytes { camera.renderFrame(into: $0) }
        XCTAssertEqual(rendered.frameNumber, 31)
        XCTAssertEqual(rendered.time, clock.read())

        // The clock stands still: photos still get fresh frames, each after at most a frame interval.
        XCTAssertEqual(try camera.capturePhoto().frameNumber, 32)
        XCTAssertEqual(try camera.capturePhoto().frameNumber, 33)
    }

    func testErrorsDescribeThemselves() {
        XCTAssertEqual("\(CameraError.busy("held by uid 1000"))", "held by uid 1000")
        XCTAssertEqual(CameraPosition(rawValue: "external"), .external)
        XCTAssertEqual(CameraPosition.allCases.map(\.rawValue), ["back", "front", "external", "unspecified"])
    }
}
