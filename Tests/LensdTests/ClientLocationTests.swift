import Foundation
import LensClient
import LensTestSupport
import XCTest

/// LensClient with a real gpsd (LocationTestCase: a 3D fix of 3.99 m, location required): the
/// location, capture-disabled and capture-enabled callbacks.
final class ClientLocationTests: LocationTestCase {
    func testLocationAndTheCaptureGateReachTheDelegate() throws {
        let delegate = RecordingDelegate()
        let camera = try LensCamera(bus: .address(bus.address), delegate: delegate, delegateQueue: delegate.queue)
        defer { camera.close() }
        let events = EventRecorder(camera.events)
        XCTAssertTrue(try camera.setMaximumLocationAccuracy(3))

        guard case .location(let fix?) = try delegate.wait(for: "didUpdateLocation with a fix", {
            if case .location(_?) = $0 { true } else { false }
        }) else { return }
        XCTAssertEqual(fix.accuracy, 3.99, accuracy: 0.01)
        XCTAssertEqual(fix.mode, .threeD)
        XCTAssertNotNil(fix.altitude)
        let status = try camera.captureStatus()
        XCTAssertFalse(status.captureEnabled)
        XCTAssertEqual(status.disabledReasons, [.location])

        var seen = delegate.calls.count
        XCTAssertTrue(try camera.setMaximumLocationAccuracy(5))
        try delegate.wait(for: "captureEnabled", skipping: seen) { $0 == .captureEnabled }
        XCTAssertTrue(try camera.captureStatus().captureEnabled)

        seen = delegate.calls.count
        XCTAssertTrue(try camera.setMaximumLocationAccuracy(3))
        try delegate.wait(for: "captureDisabled", skipping: seen) { $0 == .captureDisabled([.location]) }
        XCTAssertThrowsError(try camera.beginCapture()) { error in
            // The claim comes first: without it lensd says NotStarted, with it CaptureDisabled.
            XCTAssertEqual((error as? LensClientError)?.name, "NotStarted")
        }
        try camera.startCaptureSession()
        XCTAssertThrowsError(try camera.beginCapture()) { XCTAssertEqual(($0 as? LensClientError)?.name, "CaptureDisabled") }

        let delivered = delegate.calls.map(\.kind)
        XCTAssertEqual(Array(events.kinds(atLeast: delivered.count).prefix(delivered.count)), delivered)
        XCTAssertEqual(delegate.offQueue, 0)
    }
}
