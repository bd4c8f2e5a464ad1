import LensBus
import LensCore

/// Samples the scene on the camera thread — at once, then once a second — and calls `changed`
/// once when it differs substantially from the first sample. The first sample is queued before
/// any call that follows the one that started the watch, so that call's effect counts as a
/// change. Dropping the watch stops it.
final class SubjectWatch {
    private var timer: (any Cancellable)?
    private var reference: [Double]?
    private var sampling = false
    private let changed: () -> Void
    private let host: MachineHost
    private let cameras: Cameras

    init(host: MachineHost, cameras: Cameras, loop: any LoopExecutor, changed: @escaping () -> Void) {
        self.host = host
        self.cameras = cameras
        self.changed = changed
        timer = loop.every(.seconds(1)) { [weak self] in self?.sample() }
        sample()
    }

    deinit { timer?.cancel() }

    private func sample() {
        // While recording, the camera's frames belong to the recording.
        guard !sampling, host.machine.recording == nil else { return }
        sampling = true
        cameras.run({ try SceneChange.lumaGrid(ofJPEG: $0.capturePhoto().thumbnail) }) { [weak self] result, _ in
            self?.compare(result)
        }
    }

    private func compare(_ result: Result<[Double], Error>) {
        sampling = false
        guard timer != nil, case .success(let grid) = result else { return }
        guard let reference else {
            reference = grid
            return
        }
        if SceneChange.difference(reference, grid) > SceneChange.substantial {
            timer = nil
            changed()
        }
    }
}
