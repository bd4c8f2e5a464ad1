import LensBus
import LensCore

/// The frame source for the pipeline's sinks: while the claim holder has one (a preview, a face
/// auto-capture) and no recording pulls frames — a recording passes each of its frames on itself —
/// one frame per camera-thread job, so that photos and controls queued meanwhile run between two frames.
final class FramePump: CaptureFlow {
    private unowned let service: LensService
    /// Whether a pump job is queued, and whether the last one found no camera open.
    private var running = false
    private var foundNoCamera = false

    init(service: LensService) { self.service = service }

    /// The recording pulled the frames; now the pump does again.
    func handle(_ effect: CaptureMachine.Effect) {
        if case .recordingChanged(_, recording: false) = effect { start() }
    }

    func start() {
        let rig = service.cameras.rig
        guard !running, service.machine.recording == nil, service.machine.holder != nil, !rig.frames.isEmpty else { return }
        running = true
        let back = service.loop.confine(self)
        rig.offerNextFrame { result in
            back.post { $0.pumped(result, rig: rig) }
        }
    }

    private func pumped(_ result: Result<Bool, Error>, rig: CameraRig) {
        running = false
        guard rig === service.cameras.rig, let holder = service.holder else { return }
        switch result {
        case .success(let cameraOpen) where cameraOpen || !foundNoCamera:
            // No camera open once is a camera switch under way: its open job runs before the next pump job.
            foundNoCamera = !cameraOpen
            start()
        case .success:
            endSinks(of: holder, failure: .cameraSessionFailed("the camera stopped streaming"))
        case .failure(let error):
            endSinks(of: holder, failure: LensError.from(error))
        }
    }

    private func endSinks(of holder: Session, failure: LensError) {
        service.previews.end(of: holder, failure: failure)
        service.faces.end(of: holder, failure: failure)
    }
}
