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

    func didGenerateThumbnail(_ thumbnail: Data, name: String) {
        post(.thumbnail(name: name, image: try? Texture(encoded: Array(thumbnail)), kind: .photo))
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

    func didGenerateVideoThumbnail(_ thumbnail: Data, name: String, duration: Double) {
        post(.thumbnail(name: name, image: try? Texture(encoded: Array(thumbnail)), kind: .video(duration: duration)))
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

    func captureDisabled(reasons: [LensDisabledReason]) { gateChanged() }
    /// A new fix, or none: its accuracy shows, and the gate's words may change (a coarse fix).
    func didUpdateLocation(_ location: LensLocation?) {
        post(.location(accuracy: location?.accuracy))
        gateChanged()
    }
    func captureEnabled() { gateChanged() }
    func didFailWithError(_ error: LensClientError) { post(.error(error.message)) }
    // A refused control's error also comes here; the failed call reports it (CameraSession.control).
    func didChangeZoomFactor(_ factor: Double?, error: LensClientError?) { if let factor { post(.zoom(factor)) } }
    func didFocusOnPoint(_ point: LensPoint?, error: LensClientError?) { if let point { post(.focused(point)) } }
    func didChangeCamera(_ device: LensDevice?, error: LensClientError?) { if let device { post(.device(device)) } }
    func didChangeFlashMode(_ mode: LensFlashMode?, error: LensClientError?) { if let mode { post(.flash(mode)) } }
    func didStartRecordingVideo() { post(.recordingStarted) }
    func didStopRecordingVideo() { post(.recordingStopped) }
    func didFailRecordingVideo(_ error: LensClientError) { post(.error(tr("Recording failed: %@", error.message))) }
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
