@testable import LensCameraUI
import XCTest

/// Zoom gestures send absolute factors: start factor × cumulative scale, never compounding.
final class ZoomGestureTests: XCTestCase {
    func testPinchIsStartFactorTimesCumulativeScaleClamped() {
        let pinch = ZoomGesture(startFactor: 2, maximum: 8)
        XCTAssertEqual(pinch.factor(forCumulativeScale: 1.5), 3)
        XCTAssertEqual(pinch.factor(forCumulativeScale: 1.5), 3, "the same update twice gives the same factor")
        XCTAssertEqual(pinch.factor(forCumulativeScale: 0.25), 1, "never below 1")
        XCTAssertEqual(pinch.factor(forCumulativeScale: 10), 8, "never above the camera's maximum")
        XCTAssertEqual(pinch.factor(forCumulativeScale: .nan), 2)
    }

    func testScrollStepsWithinAPauseAreOneGesture() {
        var scroll = ScrollZoom()
        // The factor lensd reports may lag behind; each step must use the gesture's start.
        XCTAssertEqual(scroll.factor(afterScroll: -1, at: 10.0, currentFactor: 1, maximum: 8), 1.25, accuracy: 1e-9)
        XCTAssertEqual(scroll.factor(afterScroll: -1, at: 10.1, currentFactor: 1, maximum: 8), 1.5625, accuracy: 1e-9)
        XCTAssertEqual(scroll.factor(afterScroll: 1, at: 10.2, currentFactor: 1.25, maximum: 8), 1.25, accuracy: 1e-9)
        // After a pause a new gesture starts from the factor then in use.
        XCTAssertEqual(scroll.factor(afterScroll: -1, at: 11.0, currentFactor: 1.25, maximum: 8), 1.5625, accuracy: 1e-9)
    }
}
