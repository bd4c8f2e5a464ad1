import Foundation
import LensClient
import LensTestSupport
import XCTest

/// The seeds' delegates (SeedDelegates.swift) against a real lensd — gpsd fed a 3.99 m fix, a real
/// TSA under `timestamp = required` — each callback in the order the SDK's guide describes.
final class SeedDelegateTests: LocationTestCase {
    private var tsa: LocalTSA!
    private var videos: URL { tmp.file("videos") }

    override func prepare() throws {
        try super.prepare()
        tsa = try LocalTSA(directory: tmp.file("tsa"))
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: false)
    }

    override func tearDown() {
        super.tearDown()
        tsa = nil
    }

    override var daemonArguments: [String] {
        super.daemonArguments + ["--synthetic-size", "320x240", "--tsa-url", tsa.url, "--tsa-trust-anchor", tsa.root.path,
                                 "--tsa-timeout", "2", "--timestamp", "required"]
    }

    /// Polls on the main thread's run loop, which runs the main queue: the SDK's delegate queue.
    private func wait(for call: String, in log: CallLog, after mark: Int, timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !log.all.dropFirst(mark).contains(where: { $0.hasPrefix(call) }) {
            guard Date() < deadline else { throw TestToolError("no \(call) within \(timeout) s; calls: \(log.all.dropFirst(mark))") }
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
    }

    private func recordSomeFrames(_ camera: LensCamera) throws {
        try camera.startVideoCapture()
        try waitUntil("a recording with frames") { try camera.videoRecordingProgress?.duration ?? 0 >= 0.2 }
        try camera.stopVideoCapture()
    }

    /// The guide's delegate on `LensCamera.sharedInstance`: the gate, a failed and a signed photo,
    /// every control with its value and a refusal, a signed and an unsigned video — each call in
    /// the SDK's order, the videos handed over as files.
    func testTheGuidesDelegateHearsEveryCallbackInTheSDKsOrder() throws {
        LensCamera.sharedInstanceBus = .address(bus.address)
        guard let camera = LensCamera.sharedInstance else { return XCTFail("Unable to instantiate Lens Camera.") }
        defer { camera.close() }
        XCTAssertIdentical(LensCamera.sharedInstance, camera)
        camera.videoDirectory = videos
        let viewController = GuideViewController()
        let log = viewController.log
        camera.configureSession(delegate: viewController)
        try camera.startCaptureSession()
        try waitUntil("capture enabled by gpsd's fix and the TSA") { try camera.captureStatus().captureEnabled }
        try wait(for: "lensCameraDidEnableCapture()", in: log, after: 0)
        let mark = log.all.count

        // The fix is 3.99 m: a 3 m threshold disables capture, 1500 m enables it again.
        XCTAssertTrue(try camera.setMaximumLocationAccuracy(3))
        try wait(for: "lensCameraDidDisableCapture", in: log, after: mark)
        XCTAssertTrue(try camera.setMaximumLocationAccuracy(1500))
        try wait(for: "lensCameraDidEnableCapture()", in: log, after: mark + 1)

        // A file where the caller's results belong: the frame is taken, storing it fails.
        let results = daemon.stateDirectory.appendingPathComponent("results/\(getuid())")
        XCTAssertTrue(FileManager.default.createFile(atPath: results.path, contents: Data()))
        let failed = try camera.beginCapture()
        try wait(for: "lensCameraDidFailWithError", in: log, after: mark)
        try FileManager.default.removeItem(at: results)
        let photo = try camera.beginCapture()
        try wait(for: "lensCameraDidGenerateTruepic(\(photo)", in: log, after: mark)

        XCTAssertEqual(try camera.setZoomFactor(2), 2)
        XCTAssertThrowsError(try camera.setZoomFactor(0.5))
        XCTAssertEqual(try camera.focus(at: LensPoint(x: 0.25, y: 0.75)).point, LensPoint(x: 0.25, y: 0.75))
        try camera.setFlashMode(.on)
        // The manual focus sampled the scene; the flash brightens it.
        try wait(for: "lensCameraSubjectAreaDidChange()", in: log, after: mark)
        XCTAssertEqual(try camera.changeCamera().position, .front)
        try wait(for: "lensCameraDidChangeTo(front", in: log, after: mark)

        try camera.setCameraMode(.video)
        try recordSomeFrames(camera)
        try wait(for: "lensCameraDidGenerateTruepicVideo", in: log, after: mark)
        try camera.startVideoCapture()
        try waitUntil("a recording with frames") { try camera.videoRecordingProgress?.duration ?? 0 >= 0.2 }
        tsa.stop()
        let unsignedName = try XCTUnwrap(try camera.videoRecordingProgress?.name)
        try camera.stopVideoCapture()
        try wait(for: "lensCameraDidGenerateUnsignedVideo", in: log, after: mark, timeout: 60)

        let stored = Dictionary(uniqueKeysWithValues: try camera.results().map { ($0.name, $0) })
        let signedName = try XCTUnwrap(stored.values.first { $0.mime == "video/mp4" && $0.signed }?.name)
        // Without a TSA, `required` also disables capture: that may come at any point after the stop of the TSA.
        let calls = log.all.dropFirst(mark).filter { $0 != "lensCameraDidDisableCapture(for: [\"timestamp\"])" }
        XCTAssertEqual(Array(calls.filter { $0 != "lensCameraSubjectAreaDidChange()" }), [
            "lensCameraDidDisableCapture(for: [\"location\"])",
            "lensCameraDidEnableCapture()",
            "lensCameraDidFinishInitialCapture(\(failed), jpeg)",
            "lensCameraDidFailWithError(Internal)",
            "lensCameraDidFinishInitialCapture(\(photo), jpeg)",
            "lensCameraDidGenerateTruepic(\(photo), \(try XCTUnwrap(stored[photo]).size))",
            "lensCameraChangedZoomFactor(2.0, error: nil)",
            "lensCameraChangedZoomFactor(nil, error: InvalidArgument)",
            "lensCameraDidFocusOnPoint((0.25, 0.75), error: nil)",
            "lensCameraDidSetFlashMode(on, error: nil)",
            "lensCameraDidChangeTo(front, error: nil)",
            "lensCameraDidStartRecordingVideo()",
            "lensCameraDidStopRecordingVideo()",
            "lensCameraDidGenerateVideoThumnail(fileName: \(signedName), duration: > 0)",
            "lensCameraDidGenerateTruepicVideo(\(videos.appendingPathComponent("\(signedName).mp4").path))",
            "lensCameraDidStartRecordingVideo()",
            "lensCameraDidStopRecordingVideo()",
            "lensCameraDidGenerateVideoThumnail(fileName: \(unsignedName), duration: > 0)",
            "lensCameraDidGenerateUnsignedVideo(\(videos.appendingPathComponent("\(unsignedName).mp4").path))",
        ])
        let subjectArea = try XCTUnwrap(calls.firstIndex(of: "lensCameraSubjectAreaDidChange()"))
        XCTAssertGreaterThan(subjectArea, try XCTUnwrap(calls.firstIndex(of: "lensCameraDidFocusOnPoint((0.25, 0.75), error: nil)")))

        // The URLs hold the stored videos whole: the signed one Trusted, the other with no manifest.
        let signedFile = videos.appendingPathComponent("\(signedName).mp4")
        let unsignedFile = videos.appendingPathComponent("\(unsignedName).mp4")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: signedFile.path)[.size] as? UInt64, stored[signedName]?.size)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: unsignedFile.path)[.size] as? UInt64, stored[unsignedName]?.size)
        let anchor = tmp.file("anchor.pem")
        try camera.trustAnchor().write(to: anchor, atomically: true, encoding: .utf8)
        try ReferenceValidator.assertTrusted(signedFile, anchors: [anchor, tsa.root])
        XCTAssertEqual(try ReferenceValidator.verdict(file: unsignedFile).exitStatus, 2, "c2pa-rs finds no manifest")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: videos.path).sorted(),
                       ["\(signedName).mp4", "\(unsignedName).mp4"].sorted(), "no temporary file left")
    }

    /// The sample app's delegate, its camera given to it (dependency injection) and configured in
    /// viewWillAppear: a photo and a video, by the sample app's spellings.
    func testTheSampleAppsDelegateHearsItsSpellings() throws {
        let camera = try LensCamera(bus: .address(bus.address))
        defer { camera.close() }
        camera.videoDirectory = videos
        let viewController = SampleCameraViewController()
        let log = viewController.log
        camera.configureSession(delegate: viewController)
        try camera.startCaptureSession()
        try waitUntil("capture enabled") { try camera.captureStatus().captureEnabled }

        let photo = try camera.beginCapture()
        try wait(for: "lensCameraDidGenerateTruepic(\(photo)", in: log, after: 0)
        try camera.setCameraMode(.video)
        try recordSomeFrames(camera)
        try wait(for: "lensCameraDidGenerateTruepicVideo", in: log, after: 0)
        let video = try XCTUnwrap(try camera.results().first { $0.mime == "video/mp4" })
        XCTAssertEqual(log.all, [
            "lensCameraDidGeneratePhotoThumbnail(\(photo))",
            "lensCameraDidGenerateTruepic(\(photo), image: \(try XCTUnwrap(try camera.results().first { $0.name == photo }).size))",
            "lensCameraDidStartRecordingVideo()",
            "lensCameraDidStopRecordingVideo()",
            "lensCameraDidGenerateVideoThumbnail(fileName: \(video.name))",
            "lensCameraDidGenerateTruepicVideo(\(videos.appendingPathComponent("\(video.name).mp4").path))",
        ])
    }
}
