@testable import LensCameraUI
import XCTest

/// The preview-to-frame mapping FocusAt depends on, for a 4:3 frame in a wide and a tall view.
final class PreviewGeometryTests: XCTestCase {
    func testFitLetterboxesAndMapsInsideTheFrameOnly() throws {
        // 640×480 in 800×420: scaled by 0.875 to 560×420, 120 px bars left and right.
        let fit = PreviewGeometry(frameWidth: 640, frameHeight: 480, viewWidth: 800, viewHeight: 420, scaling: .fit)
        XCTAssertEqual(fit.displayed.x, 120)
        XCTAssertEqual(fit.displayed.width, 560)
        let point = try XCTUnwrap(fit.framePoint(atViewX: 260, y: 210))
        XCTAssertEqual(point.x, 0.25, accuracy: 1e-9)
        XCTAssertEqual(point.y, 0.5, accuracy: 1e-9)
        XCTAssertNil(fit.framePoint(atViewX: 60, y: 210), "the bar shows no frame")
        XCTAssertNil(fit.framePoint(atViewX: 700, y: 10))
    }

    func testFillCropsAndMapsThroughTheCrop() throws {
        // 640×480 covering 800×420: scaled by 1.25 to 800×600, 90 px cropped above and below.
        let fill = PreviewGeometry(frameWidth: 640, frameHeight: 480, viewWidth: 800, viewHeight: 420, scaling: .fill)
        XCTAssertEqual(fill.displayed.y, -90)
        let top = try XCTUnwrap(fill.framePoint(atViewX: 200, y: 0))
        XCTAssertEqual(top.x, 0.25, accuracy: 1e-9)
        XCTAssertEqual(top.y, 0.15, accuracy: 1e-9, "the view's top edge is 90 of the frame's 600 shown pixels down")
        XCTAssertNotNil(fill.framePoint(atViewX: 0, y: 419), "every view point shows the frame")
    }

    func testViewPointIsTheInverse() throws {
        for scaling in [PreviewGeometry.Scaling.fit, .fill] {
            let geometry = PreviewGeometry(frameWidth: 1280, frameHeight: 720, viewWidth: 500, viewHeight: 700, scaling: scaling)
            let view = geometry.viewPoint(atFrameX: 0.3, y: 0.6)
            let back = try XCTUnwrap(geometry.framePoint(atViewX: view.x, y: view.y), "\(scaling)")
            XCTAssertEqual(back.x, 0.3, accuracy: 1e-9)
            XCTAssertEqual(back.y, 0.6, accuracy: 1e-9)
        }
    }

    func testNoFrameYetMapsNothing() {
        XCTAssertNil(PreviewGeometry(frameWidth: 0, frameHeight: 0, viewWidth: 800, viewHeight: 420, scaling: .fit)
            .framePoint(atViewX: 400, y: 200))
    }
}
