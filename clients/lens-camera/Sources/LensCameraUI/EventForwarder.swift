import Foundation
import GtkKit
import LensClient

/// LensClient's delegate for one session. LensClient calls it on a private serial queue, in
/// lensd's order; each event becomes one post onto the GLib main context (no polling). Work
/// that must not block the UI — decoding thumbnails, writing and verifying results — is done
/// here, before the post, which keeps the order.
final class EventForwarder: LensCameraDelegate, @unchecked Sendable {  // set up before the camera exists, then read-only
    let queue = DispatchQueue(label: "lens-camera.events")
    private let update: @Sendable (CameraUpdate) -> Void
    /// Asks the session for the gate's words (they need a call to lensd).
    private let gateChanged: @Sendable () -> Void
    private let disconnected: @Sendable (LensClientError) -> Void
    weak var camera: LensCamera?
    var archive: ResultArchive?
    /// The face instructions' texts, from lensd's gettext catalogs in the user's language.
    var faceTexts = LensFaceLocalization.forEnvironment(localeDirectories: FaceMode.localeDirectories).localization

    init(update: @escaping @Sendable (CameraUpdate) -> Void, gateChanged: @escaping @Sendable () -> Void,
         disconnected: @escaping @Sendable (LensClientError) -> Void) {
        self.update = update
        self.gateChanged = gateChanged
        self.disconnected = disconnected
    }

    private func post(_ event: CameraUpdate) {
        let update = update
        MainContext.post { update(event) }
    }

    func lensCameraDidFinishInitialCapture(_ imageName: String, _ image: Data) {
        post(.thumbnail(name: imageName, image: try? Texture(encoded: Array(image)), kind: .photo))
    }

    func didGenerateTruepic(_ photo: Data, name: String, info: LensResultInfo) {
        guard let archive else { return }
        do {
            let kept = try archive.keepPhoto(photo, name: name)
            post(.stored(name: name, verdict: kept.verdict, file: kept.file.path))
        } catch {
            post(.stored(name: name, verdict: .notKept(error.localizedDescription), file: nil))
            post(.error(tr("Could not keep the photo: %@", error.localizedDescription)))
        }
    }

    func lensCameraDidGenerateVideoThumnail(fileName: String, image: Data, duration: TimeInterval?) {
        post(.thumbnail(name: fileName, image: try? Texture(encoded: Array(image)), kind: .video(duration: duration ?? 0)))
    }

    func didGenerateTruepicVideo(name: String, info: LensVideoInfo) { keepVideo(name, signed: true, reason: nil) }
    func didGenerateUnsignedVideo(name: String, info: LensVideoInfo) { keepVideo(name, signed: false, reason: info.reason) }

    private func keepVideo(_ name: String, signed: Bool, reason: String?) {
        guard let archive, let camera else { return }
        do {
            let kept = try archive.keepVideo(name, from: camera, signed: signed, reason: reason)
            post(.stored(name: name, verdict: kept.verdict, file: kept.file.path))
        } catch {
            post(.stored(name: name, verdict: .notKept(error.localizedDescription), file: nil))
            post(.error(tr("Could not keep the video: %@", error.localizedDescription)))
        }
    }

    func lensCameraDidDisableCapture(for reasons: Set<LensCaptureStatus>) { gateChanged() }
    /// A new fix, or none: its accuracy shows, and the gate's words may change (a coarse fix).
    func didUpdateLocation(_ location: LensLocation?) {
        post(.location(accuracy: location?.accuracy))
        gateChanged()
    }
    func lensCameraDidEnableCapture() { gateChanged() }
    func lensCameraDidFailWithError(_ error: LensCameraError) { post(.error(error.message)) }
    // A refused control's error also comes here; the failed call reports it (CameraSession.control).
    func lensCameraChangedZoomFactor(_ zoomFactor: Double?, error: Error?) { if let zoomFactor { post(.zoom(zoomFactor)) } }
    func lensCameraDidFocusOnPoint(_ point: LensPoint?, error: Error?) { if let point { post(.focused(point)) } }
    func lensCameraDidChangeTo(_ device: LensCaptureDevice?, error: Error?) { if let device { post(.device(device)) } }
    func lensCameraDidSetFlashMode(_ mode: LensCaptureDevice.FlashMode?, error: Error?) { if let mode { post(.flash(mode)) } }
    func lensCameraDidStartRecordingVideo() { post(.recordingStarted) }
    func lensCameraDidStopRecordingVideo() { post(.recordingStopped) }
    func lensCameraVideoRecordingFailed(error: Error?) {
        let message = (error as? LensClientError)?.message ?? error.map { "\($0)" } ?? ""
        post(.error(tr("Recording failed: %@", message)))
    }
    func didDetectFace(_ detection: LensFaceDetection) {
        let face = detection.face.map { (left: $0.left, top: $0.top, right: $0.right, bottom: $0.bottom) }
        post(.faceDetected(FaceOverlay(instruction: detection.instruction.localizedText(faceTexts), face: face,
                                       isValid: detection.isValid)))
    }
    func didStartCandidateSelection() {
        post(.faceCandidateSelection(instruction: LensFaceInstruction.candidateSelection.localizedText(faceTexts)))
    }
    func didFinishFaceAutoCapture(name: String, detection: LensFaceDetection) { post(.faceFinished) }
    func didDisconnect(_ error: LensClientError) { disconnected(error) }
}
