import LensBus
import LensCore

/// The frame source for the pipeline's sinks: while the claim has an attachment (a preview, a
/// face auto-capture) and no recording pulls frames — a recording passes each of its frames on
/// itself — one frame per camera-thread job, so that photos and controls queued meanwhile run
/// between two frames. Frames that stop coming end every attachment, through the machine.
final class FramePump: CaptureFlow {
    private let host: MachineHost
    private let cameras: Cameras
    private let loop: any LoopExecutor
    /// Whether a pump job is queued, and whether the last one found no camera open.
    private var running = false
    private var foundNoCamera = false

    init(host: MachineHost, cameras: Cameras, loop: any LoopExecutor) {
        self.host = host
        self.cameras = cameras
        self.loop = loop
    }

    /// A sink was attached, or the recording that pulled the frames ended.
    func handle(_ effect: CaptureMachine.Effect) {
        switch effect {
        case .attached, .recordingChanged(_, recording: false): start()
        default: break
        }
    }

    private func start() {
        let rig = cameras.rig
        guard !running, host.machine.recording == nil, host.machine.holder != nil, !rig.frames.isEmpty else { return }
        running = true
        let back = loop.confine(self)
        rig.offerNextFrame { result in
            back.post { $0.pumped(result, rig: rig) }
        }
    }

    private func pumped(_ result: Result<Bool, Error>, rig: CameraRig) {
        running = false
        guard rig === cameras.rig, host.machine.holder != nil else { return }
        switch result {
        case .success(let cameraOpen) where cameraOpen || !foundNoCamera:
            // No camera open once is a camera switch under way: its open job runs before the next pump job.
            foundNoCamera = !cameraOpen
            start()
        case .success:
            host.transition { $0.framesFailed(.cameraSessionFailed("the camera stopped streaming")) }
        case .failure(let error):
            host.transition { $0.framesFailed(LensError.from(error)) }
        }
    }
}
