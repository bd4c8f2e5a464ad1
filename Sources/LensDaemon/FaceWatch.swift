import LensCamera
import LensCore
import LensFace
import LensSystem
import Synchronization

/// The face detector on the frame pipeline: a sink that copies a frame only while its own thread
/// is idle (so it skips frames when it falls behind, never delaying the camera), downscales it to
/// a fixed luma plane there and runs the auto-capture controller on it. The controller keeps the
/// full-size copy of the best candidate only: memory is that frame plus the one being scored.
final class FaceWatch: FrameSink, Sendable {
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

    /// What the detection thread keeps: the controller, and which run of it this is.
    private struct Scoring {
        var controller: FaceAutoCapture<FrameCopy>
        var generation = 0
    }

    private let worker = SerialWorker(name: "lensd-face")
    private let scoring: Confined<Scoring>
    private let busy = Atomic<Bool>(false)
    private let report: @Sendable (FaceWatch, Result<Report, Error>) -> Void

    init(controller: FaceAutoCapture<FrameCopy>, report: @escaping @Sendable (FaceWatch, Result<Report, Error>) -> Void) {
        scoring = Confined(Scoring(controller: controller), on: worker)
        self.report = report
    }

    /// Camera thread.
    func offer(_ frame: VideoFrame) {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        var taken = FrameCopy()
        taken.copy(frame)
        scoring.submit { [self, copy = taken] scoring in
            defer { busy.store(false, ordering: .releasing) }
            do {
                let size = Self.lumaSize(width: copy.width, height: copy.height)
                let luma = try LumaImage(rgb: try copy.scaledRGB(width: size.width, height: size.height),
                                         width: size.width, height: size.height)
                let millis = Int64((copy.timestamp * 1000).rounded())
                guard let step = scoring.controller.process(luma, timestampMillis: millis, frame: copy) else { return }
                report(self, .success(Report(generation: scoring.generation, sequence: copy.sequence, lumaSize: size, step: step)))
            } catch {
                report(self, .failure(error))
            }
        }
    }

    /// Loop thread; applied between two frames, in order with them.
    func requestCapture() { scoring.submit { $0.controller.requestCapture() } }

    /// Loop thread; reports of the run before carry the old generation.
    func restart(generation next: Int) {
        scoring.submit { scoring in
            scoring.controller.restart()
            scoring.generation = next
        }
    }

    /// Loop thread: waits for the frame being scored, if any (one detection).
    func stop() { worker.stop() }

    static func lumaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = min(1, Double(lumaBox.width) / Double(width), Double(lumaBox.height) / Double(height))
        return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }
}
