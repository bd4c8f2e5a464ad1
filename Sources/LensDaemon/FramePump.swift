import LensCore

/// Loop thread: whether a pump job is queued, and whether the last one found no camera open.
struct FramePumpState {
    var running = false
    var foundNoCamera = false
}

/// The frame source for the pipeline's sinks: while the claim holder has one (a preview, a face
/// auto-capture) and no recording pulls frames — a recording passes each of its frames on itself —
/// one frame per camera-thread job, so that photos and controls queued meanwhile run between two frames.
extension LensService {
    func pumpFrames() {
        guard !framePump.running, recording == nil, claimHolder != nil, !rig.frames.isEmpty else { return }
        framePump.running = true
        let rig = rig
        rig.offerNextFrame { [weak self] result in
            self?.loop.post { [weak self] in self?.framePumped(result, rig: rig) }
        }
    }

    private func framePumped(_ result: Result<Bool, Error>, rig: CameraRig) {
        framePump.running = false
        guard rig === self.rig, let holder = claimHolder else { return }
        switch result {
        case .success(let cameraOpen) where cameraOpen || !framePump.foundNoCamera:
            // No camera open once is a camera switch under way: its open job runs before the next pump job.
            framePump.foundNoCamera = !cameraOpen
            pumpFrames()
        case .success:
            endSinks(of: holder, failure: .cameraSessionFailed("the camera stopped streaming"))
        case .failure(let error):
            endSinks(of: holder, failure: LensError.from(error))
        }
    }

    private func endSinks(of holder: Session, failure: LensError) {
        endPreview(of: holder, failure: failure)
        endFaceAutoCapture(of: holder, failure: failure)
    }
}
