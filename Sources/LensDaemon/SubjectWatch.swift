import LensBus
import LensCore

/// Samples the scene once a second on the camera thread and calls `changed` once when it differs
/// substantially from the first sample. Dropping the watch stops it.
final class SubjectWatch: @unchecked Sendable {  // confined to the loop thread
    private var timer: EventSource?
    private var reference: [Double]?
    private var sampling = false
    private let changed: () -> Void
    private unowned let service: LensService

    init(service: LensService, changed: @escaping () -> Void) {
        self.service = service
        self.changed = changed
        timer = service.loop.every(.seconds(1)) { [weak self] in self?.sample() }
    }

    deinit { timer?.cancel() }

    private func sample() {
        // While recording, the camera's frames belong to the recording.
        guard !sampling, service.recording == nil else { return }
        sampling = true
        service.rig.run(on: service.currentCamera, { try SceneChange.lumaGrid(ofJPEG: $0.capturePhoto().thumbnail) }) {
            [weak self] result, _ in
            guard let loop = self?.service.loop else { return }
            loop.post { [weak self] in self?.compare(result) }
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
