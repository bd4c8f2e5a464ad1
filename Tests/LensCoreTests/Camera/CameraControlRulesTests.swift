import LensCamera
import LensCore
import XCTest

/// The SDK's control semantics lensd follows: a pinch that does not compound, and the camera
/// choice (back first, toggle back ↔ front).
final class CameraControlRulesTests: XCTestCase {
    func testPinchUpdatesScaleTheFactorTheGestureStartedAt() {
        var pinch = PinchGesture()
        let t0 = ContinuousClock.now
        // One gesture: scales cumulative from its start at 2×.
        XCTAssertEqual(pinch.factor(forScale: 1.5, current: 2, at: t0), 3)
        XCTAssertEqual(pinch.factor(forScale: 2, current: 3, at: t0 + .milliseconds(100)), 4)
        XCTAssertEqual(pinch.factor(forScale: 0.5, current: 4, at: t0 + .milliseconds(400)), 1)
        // 300 ms after the last update a new gesture starts from the factor then in effect.
        XCTAssertEqual(pinch.factor(forScale: 2, current: 1.5, at: t0 + .milliseconds(701)), 3)
        XCTAssertEqual(pinch.factor(forScale: 2, current: 3, at: t0 + .milliseconds(800)), 3)
        // An absolute zoom (or a camera change) ends it at once.
        pinch.end()
        XCTAssertEqual(pinch.factor(forScale: 2, current: 5, at: t0 + .milliseconds(850)), 10)
    }

    func testTheSessionStartsOnTheBackCameraWhateverTheOrder() {
        XCTAssertEqual(CameraSelection.initial([.front, .external, .back]), 2)
        XCTAssertEqual(CameraSelection.initial([.back, .front]), 0)
        XCTAssertEqual(CameraSelection.initial([.external, .front]), 0)
        XCTAssertNil(CameraSelection.initial([]))
    }

    func testChangeCameraTogglesBackAndFrontAndSkipsExternalOnes() {
        let positions: [CameraPosition] = [.external, .front, .unspecified, .back]
        XCTAssertEqual(CameraSelection.toggled(from: 3, positions), 1)
        XCTAssertEqual(CameraSelection.toggled(from: 1, positions), 3)
        // From an external camera the toggle goes to the back one.
        XCTAssertEqual(CameraSelection.toggled(from: 0, positions), 3)
        XCTAssertEqual(CameraSelection.toggled(from: 2, positions), 3)
        XCTAssertEqual(CameraSelection.toggled(from: 0, [.external, .front]), 1)
        // Nothing faces the other way: no toggle.
        XCTAssertNil(CameraSelection.toggled(from: 0, [.back, .external]))
        XCTAssertNil(CameraSelection.toggled(from: 0, [.back, .back]))
        XCTAssertNil(CameraSelection.toggled(from: 0, [.external]))
        XCTAssertNil(CameraSelection.toggled(from: 5, positions))
    }
}
