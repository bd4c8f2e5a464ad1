import Foundation
import LensClient
import LensCrypto
import LensTestSupport
import XCTest

/// LensClient against the real daemon: every delegate callback of this round fires for its
/// event, on the caller's queue, in the order of the event stream.
final class ClientCallbackTests: LensdTestCase {
    private var delegate: RecordingDelegate!
    private var camera: LensCamera!
    private var events: EventRecorder!

    override func setUpWithError() throws {
        try super.setUpWithError()
        delegate = RecordingDelegate()
        camera = try LensCamera(bus: .address(bus.address), delegate: delegate, delegateQueue: delegate.queue)
        events = EventRecorder(camera.events)
    }

    override func tearDown() {
        camera?.close()
        super.tearDown()
    }

    func testControlsAnswerAndTheirCallbacksFire() throws {
        try camera.startCaptureSession()

        XCTAssertEqual(try camera.setZoomFactor(2), 2)
        XCTAssertEqual(try camera.zoom(by: 1.5), 3)
        try delegate.wait(for: "zoom 3") { $0 == .zoom(3) }
        XCTAssertEqual(try camera.currentDevice?.videoZoomFactor, 3)

        let point = LensPoint(x: 0.25, y: 0.75)
        // The synthetic camera focuses at the point itself: no fallback.
        let focused = try camera.focus(at: point)
        XCTAssertEqual(focused.point, point)
        XCTAssertFalse(focused.isFallback)
        try delegate.wait(for: "focus") { $0 == .focus(point) }
        var refusal: LensClientError?
        XCTAssertThrowsError(try camera.focus(at: LensPoint(x: 1.5, y: 0))) {
            refusal = $0 as? LensClientError
            guard case .invalidArgument = refusal else { return XCTFail("\($0)") }
        }
        // lensd's Failed for it reaches the focus callback's error argument, not lensCameraDidFailWithError.
        let focusError = try XCTUnwrap(refusal)
        try delegate.wait(for: "focus error") { $0 == .controlFailed(.focus, focusError) }

        // A manual focus samples the scene before any later call runs; the flash then brightens it.
        try camera.setFlashMode(.on)
        try delegate.wait(for: "flash on") { $0 == .flash(.on) }
        try delegate.wait(for: "lensCameraSubjectAreaDidChange", timeout: 10) { $0 == .subjectArea }
        XCTAssertEqual(try camera.toggleFlash(), .auto)
        try delegate.wait(for: "flash auto") { $0 == .flash(.auto) }

        let front = try camera.changeCamera()
        XCTAssertEqual(front.position, .front)
        try delegate.wait(for: "camera switch") { $0 == .camera(front) }

        // The events stream saw the same events, in the same order, as the delegate.
        let delivered = delegate.calls.map(\.kind)
        XCTAssertEqual(Array(events.kinds(atLeast: delivered.count).prefix(delivered.count)), delivered)
        XCTAssertEqual(delegate.calls.filter { $0 != .subjectArea }.map(\.kind),
                       ["ZoomFactorChanged", "ZoomFactorChanged", "FocusedOnPoint", "Failed", "FlashModeChanged",
                        "FlashModeChanged", "DeviceChanged"])
        XCTAssertFalse(delegate.calls.contains { if case .failed = $0 { true } else { false } })
        XCTAssertEqual(delegate.offQueue, 0)
    }

    func testThumbnailThenTheSignedPhotoWhoseBytesTheReferenceTrusts() throws {
        try camera.startCaptureSession()
        let name = try camera.beginCapture()
        guard case .truepic(_, let photo, let info) = try delegate.wait(for: "didGenerateTruepic", { call in
            if case .truepic(name, _, _) = call { true } else { false }
        }) else { return XCTFail("not a truepic") }

        XCTAssertEqual(delegate.calls.map(\.kind), ["InitialCaptureFinished", "PhotoSigned"])
        XCTAssertEqual(info.size, UInt64(photo.count))
        XCTAssertEqual(info.sha256, Digest.hash(Array(photo)).map { String(format: "%02x", $0) }.joined())
        XCTAssertEqual(info.mime, "image/jpeg")
        XCTAssertEqual(photo, try camera.fetchResult(name))
        XCTAssertEqual(try storedPhotos().map { try Data(contentsOf: $0) }, [photo])

        let file = tmp.file("photo.jpg")
        try photo.write(to: file)
        let anchor = tmp.file("anchor.pem")
        try camera.trustAnchor().write(to: anchor, atomically: true, encoding: .utf8)
        try ReferenceValidator.assertTrusted(file, anchors: [anchor])
        XCTAssertEqual(events.kinds(atLeast: 2), ["InitialCaptureFinished", "PhotoSigned"])
        XCTAssertEqual(delegate.offQueue, 0)
    }

    /// A capture whose result cannot be stored ends in Failed, named as lensd names it.
    func testAFailedCaptureReachesDidFailWithError() throws {
        // A file where the caller's result directory belongs: the store fails, the frame was taken.
        let results = daemon.stateDirectory.appendingPathComponent("results/\(getuid())")
        XCTAssertTrue(FileManager.default.createFile(atPath: results.path, contents: Data()))
        try camera.startCaptureSession()
        let name = try camera.beginCapture()
        guard case .failed(let error) = try delegate.wait(for: "lensCameraDidFailWithError", { $0.kind == "Failed" }) else { return }
        XCTAssertEqual(error.name, "Internal", "\(error)")
        XCTAssertEqual(delegate.calls.map(\.kind), ["InitialCaptureFinished", "Failed"])
        XCTAssertThrowsError(try camera.fetchResult(name)) {
            XCTAssertEqual(($0 as? LensClientError)?.name, "NotFound")
        }
    }

    /// Each error of the contract that a client can provoke here arrives as its own case.
    func testErrorsAreMappedByName() throws {
        func assertError(_ name: String, _ body: () throws -> Void, line: UInt = #line) {
            XCTAssertThrowsError(try body(), line: line) { XCTAssertEqual(($0 as? LensClientError)?.name, name, "\($0)", line: line) }
        }
        assertError("NotStarted") { _ = try camera.beginCapture() }
        assertError("NotFound") { _ = try camera.fetchResult(UUID().uuidString.lowercased()) }
        assertError("InvalidArgument") { _ = try camera.fetchResult("not-a-name") }
        try camera.startCaptureSession()
        assertError("InvalidArgument") { _ = try camera.setZoomFactor(0.5) }
        try camera.setCameraMode(.video)
        assertError("Unsupported") { _ = try camera.beginCapture() }
        try camera.setCameraMode(.photo)
        XCTAssertEqual(try camera.cameraMode, .photo)
        XCTAssertFalse(try camera.setMaximumLocationAccuracy(1))
        XCTAssertTrue(try camera.setMaximumLocationAccuracy(25))
        XCTAssertEqual(try camera.captureStatus().maximumLocationAccuracy, 25)

        let second = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "second"))
        defer { second.close() }
        XCTAssertThrowsError(try second.startCaptureSession()) {
            guard case .busy(let message) = $0 as? LensClientError else { return XCTFail("\($0)") }
            XCTAssertTrue(message.contains("root"), message)
        }
        XCTAssertThrowsError(try LensCamera(bus: .address("unix:path=\(tmp.file("no-bus").path)"))) {
            XCTAssertEqual(($0 as? LensClientError)?.name, "Unreachable")
        }
    }

    func testStatusDevicesAndTrustAnchor() throws {
        let status = try camera.status()
        XCTAssertTrue(status.cameraPresent)
        XCTAssertEqual(status.enrollmentState, "enrolled")
        XCTAssertNotNil(status.certificateNotAfter)
        let capture = try camera.captureStatus()
        XCTAssertTrue(capture.captureEnabled)
        XCTAssertEqual(capture.cameraMode, .photo)
        XCTAssertEqual(capture.currentDevice?.position, .back)
        XCTAssertEqual(try camera.devices().map(\.position), [.back, .front])
        XCTAssertTrue(try camera.trustAnchor().hasPrefix("-----BEGIN CERTIFICATE-----"))
    }

    /// When lensd goes away the delegate hears it last, the stream ends, and calls fail.
    func testDisconnectIsTheLastEvent() throws {
        daemon.stop()
        guard case .disconnected = try delegate.wait(for: "didDisconnect", { $0.kind == "Disconnected" }) else { return }
        XCTAssertThrowsError(try camera.status()) { XCTAssertEqual(($0 as? LensClientError)?.name, "Disconnected") }
        XCTAssertEqual(events.kinds(atLeast: 1), ["Disconnected"])
    }
}
