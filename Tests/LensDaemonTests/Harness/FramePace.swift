import Dispatch
import Synchronization

/// Keeps a camera's frames at most `lead` ahead of the face detector. The detector skips the frames
/// that come while it is busy; at 30 fps of wall clock the bus tests relied on each 60-frame step
/// of a script lasting 2 s. Here the camera may make `lead` frames after each FaceDetected and
/// then waits for the next one, so every step is looked at however fast frames are made or slow
/// the detector is. FaceDetected is recorded on the loop thread, so the waiting camera thread asks
/// there (a look, posted to the loop) every 2 ms; after `patience` without one it makes a frame
/// anyway — a detector that skipped the frame offered while it was finishing the last, or a run
/// that has ended, must not stall the camera thread.
final class FramePace: Sendable {
    let lead: Int
    private let patience: Duration
    private struct Progress {
        /// FaceDetected signals the last look counted, frames made since that count grew, and
        /// whether a look is posted and has not run yet.
        var detections = 0
        var framesSince = 0
        var looking = false
    }
    private let progress = Mutex(Progress())
    private let grew = DispatchSemaphore(value: 0)
    private let loop = Mutex<EmbeddedLoop?>(nil)
    /// Loop thread only: counts the FaceDetected signals emitted so far.
    nonisolated(unsafe) private var countDetections: (() -> Int)?

    init(lead: Int = 8, patience: Duration = .milliseconds(250)) {
        self.lead = lead
        self.patience = patience
    }

    /// From now on, on the loop thread: FaceDetected as `lensd` records it. Until then the camera
    /// is not held back.
    func follow(_ lensd: DaemonHarness) {
        let bus = lensd.bus
        countDetections = { bus.emitted.count { $0.member == "FaceDetected" } }
        loop.withLock { $0 = lensd.loop }
    }

    /// Camera thread: returns when the next frame may be made.
    func awaitTurn() {
        guard let loop = loop.withLock({ $0 }) else { return }
        let deadline = ContinuousClock.now + patience
        while progress.withLock({ $0.framesSince >= lead }), ContinuousClock.now < deadline {
            let post = progress.withLock { progress in
                defer { progress.looking = true }
                return !progress.looking
            }
            if post { loop.post { [self] in look() } }
            _ = grew.wait(timeout: .now() + .milliseconds(2))
        }
        progress.withLock { $0.framesSince += 1 }
    }

    /// Loop thread.
    private func look() {
        let counted = countDetections?() ?? 0
        let more = progress.withLock { progress in
            progress.looking = false
            guard counted > progress.detections else { return false }
            (progress.detections, progress.framesSince) = (counted, 0)
            return true
        }
        if more { grew.signal() }
    }
}
