import Foundation
import LensClient
import Synchronization

// The delegates of the verified-capture SDK lensd mirrors (its guide and sample app), written as
// they write them, with Linux types substituted (Data for UIImage, Double for CGFloat, LensPoint for
// CGPoint); each body records the call instead of the seed's comment. If LensClient renamed a
// method or a label, a type here would no longer conform, or a call would reach no method of it.

/// Every call a seed delegate received, in order, as "method(arguments)".
final class CallLog: Sendable {
    private let calls = Mutex<[String]>([])

    func record(_ call: String) { calls.withLock { $0.append(call) } }
    var all: [String] { calls.withLock { $0 } }
}

/// The guide's "Camera Preview & Delegate Setup", steps 2 (required) and 3 (optional methods).
final class GuideViewController: LensCameraDelegate, Sendable {
    let log = CallLog()

    func lensCameraDidFailWithError(_ error: LensCameraError) {
        log.record("lensCameraDidFailWithError(\(error.name))")
    }

    func lensCameraDidFinishInitialCapture(_ imageName: String, _ image: Data) {
        log.record("lensCameraDidFinishInitialCapture(\(imageName), \(image.starts(with: [0xff, 0xd8]) ? "jpeg" : "?"))")
    }

    func lensCameraDidGenerateTruepic(_ imageName: String, _ truepic: Data) {
        log.record("lensCameraDidGenerateTruepic(\(imageName), \(truepic.count))")
    }

    func lensCameraDidDisableCapture(for reasons: Set<LensCaptureStatus>) {
        log.record("lensCameraDidDisableCapture(for: \(reasons.map(\.rawValue).sorted()))")
    }

    func lensCameraDidEnableCapture() {
        log.record("lensCameraDidEnableCapture()")
    }

    func lensCameraDidStartRecordingVideo() {
        log.record("lensCameraDidStartRecordingVideo()")
    }

    func lensCameraDidStopRecordingVideo() {
        log.record("lensCameraDidStopRecordingVideo()")
    }

    func lensCameraDidGenerateVideoThumnail(fileName: String, image: Data, duration: TimeInterval?) {
        log.record("lensCameraDidGenerateVideoThumnail(fileName: \(fileName), duration: \(duration.map { $0 > 0 } == true ? "> 0" : "none"))")
    }

    func lensCameraDidGenerateTruepicVideo(_ url: URL) {
        log.record("lensCameraDidGenerateTruepicVideo(\(url.path))")
    }

    func lensCameraDidGenerateUnsignedVideo(_ url: URL) {
        log.record("lensCameraDidGenerateUnsignedVideo(\(url.path))")
    }

    func lensCameraChangedZoomFactor(_ zoomFactor: Double?, error: Error?) {
        log.record("lensCameraChangedZoomFactor(\(zoomFactor.map { "\($0)" } ?? "nil"), error: \(name(error)))")
    }

    func lensCameraDidFocusOnPoint(_ point: LensPoint?, error: Error?) {
        log.record("lensCameraDidFocusOnPoint(\(point.map { "(\($0.x), \($0.y))" } ?? "nil"), error: \(name(error)))")
    }

    func lensCameraDidChangeTo(_ device: LensCaptureDevice?, error: Error?) {
        log.record("lensCameraDidChangeTo(\(device.map { $0.position.rawValue } ?? "nil"), error: \(name(error)))")
    }

    func lensCameraDidSetFlashMode(_ mode: LensCaptureDevice.FlashMode?, error: Error?) {
        log.record("lensCameraDidSetFlashMode(\(mode.map(\.rawValue) ?? "nil"), error: \(name(error)))")
    }

    func lensCameraSubjectAreaDidChange() {
        log.record("lensCameraSubjectAreaDidChange()")
    }

    private func name(_ error: Error?) -> String {
        error.map { ($0 as? LensCameraError)?.name ?? "\($0)" } ?? "nil"
    }
}

/// The sample app's CameraViewController: its "MARK: - LensCameraDelegate" methods.
final class SampleCameraViewController: LensCameraDelegate, Sendable {
    let log = CallLog()

    // MARK: - LensCameraDelegate
    func lensCameraDidFailWithError(_ error: LensCameraError) {
        log.record("lensCameraDidFailWithError(\(error.name))")
    }

    // MARK: - LensCameraDelegate - Photo capture
    func lensCameraDidGeneratePhotoThumbnail(_ imageName: String, image: Data) {
        log.record("lensCameraDidGeneratePhotoThumbnail(\(imageName))")
    }

    func lensCameraDidGenerateTruepic(_ imageName: String, image: Data) {
        log.record("lensCameraDidGenerateTruepic(\(imageName), image: \(image.count))")
    }

    // MARK: - LensCameraDelegate - Video capture
    func lensCameraDidStartRecordingVideo() {
        log.record("lensCameraDidStartRecordingVideo()")
    }

    func lensCameraDidStopRecordingVideo() {
        log.record("lensCameraDidStopRecordingVideo()")
    }

    func lensCameraVideoRecordingFailed(error: Error?) {
        log.record("lensCameraVideoRecordingFailed(error: \((error as? LensCameraError)?.name ?? "nil"))")
    }

    func lensCameraDidGenerateVideoThumbnail(fileName: String, image: Data, duration: TimeInterval?) {
        log.record("lensCameraDidGenerateVideoThumbnail(fileName: \(fileName))")
    }

    func lensCameraDidGenerateTruepicVideo(_ url: URL) {
        log.record("lensCameraDidGenerateTruepicVideo(\(url.path))")
    }
}
