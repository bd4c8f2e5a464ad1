import LensCamera
import LensCore
import LensFace
import LensSystem
import Synchronization

/// The face detector on the frame pipeline: a sink that copies a frame only while its own thread
/// is idle (so it skips frames when it falls behind, never delaying the camera), downscales it to
/// a fixed luma plane there and runs the auto-capture controller on it. The controller keeps the
/// full-size copy of the best candidate only: memory is that frame plus the one being scored.
final class FaceWatch: FrameSink, @unchecked Sendable {  // `controller` and `generation` live on `worker`
    /// The luma plane detection runs on fits this box (FACTS: 5–10 ms per frame at 320×240).
    static let lumaBox = (width: 320, height: 240)

    /// One processed frame, for the loop thread: which run of the controller it belongs to
    /// (restart begins a new one), the frame's sequence number and the luma plane's size.
    struct Report: Sendable {
        let generation: Int
        let sequence: UInt64
        let lumaSize: (width: Int, height: Int)
        let step: FaceAutoCaptureStep<FrameCopy>
    }

    private let worker = SerialWorker(name: "lensd-face")
    private let scoring = Atomic<Bool>(false)
    private var controller: FaceAutoCapture<FrameCopy>
    private var generation = 0
    private let report: @Sendable (FaceWatch, Result<Report, Error>) -> Void

    init(controller: FaceAutoCapture<FrameCopy>, report: @escaping @Sendable (FaceWatch, Result<Report, Error>) -> Void) {
        self.controller = controller
        self.report = report
    }

    /// Camera thread.
    func offer(_ frame: VideoFrame) {
        guard scoring.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        var taken = FrameCopy()
        taken.copy(frame)
        worker.submit { [self, copy = taken] in
            defer { scoring.store(false, ordering: .releasing) }
            do {
                let size = Self.lumaSize(width: copy.width, height: copy.height)
                let luma = try LumaImage(rgb: try copy.scaledRGB(width: size.width, height: size.height),
                                         width: size.width, height: size.height)
                let millis = Int64((copy.timestamp * 1000).rounded())
                guard let step = controller.process(luma, timestampMillis: millis, frame: copy) else { return }
                report(self, .success(Report(generation: generation, sequence: copy.sequence, lumaSize: size, step: step)))
            } catch {
                report(self, .failure(error))
            }
        }
    }

    /// Loop thread; applied between two frames, in order with them.
    func requestCapture() { worker.submit { [self] in controller.requestCapture() } }

    /// Loop thread; reports of the run before carry the old generation.
    func restart(generation next: Int) {
        worker.submit { [self] in
            controller.restart()
            generation = next
        }
    }

    /// Loop thread: waits for the frame being scored, if any (one detection).
    func stop() { worker.stop() }

    static func lumaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = min(1, Double(lumaBox.width) / Double(width), Double(lumaBox.height) / Double(height))
        return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }
}
