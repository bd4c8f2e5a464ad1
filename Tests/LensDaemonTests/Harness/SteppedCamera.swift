import Foundation
import LensCamera
import LensCore
import Synchronization

/// The synthetic camera on a clock of its own that moves one frame interval per frame: frames are
/// numbered and time-stamped exactly as at its frame rate (the face candidate window and the
/// frame a FaceDetected names are camera time), but made as fast as they are taken instead of at
/// the wall clock's pace, which kept the bus's face tests waiting 15 s for every pass of a script.
/// With a FramePace the video frames also keep pace with the face detector (see FramePace).
final class SteppedCamera: Camera {
    private let camera: SyntheticCamera
    private let clock: SteppedClock
    private let pace: FramePace?
    /// When the camera was last opened, on its clock, and the frames made since.
    private var openedAt = Date.distantPast
    private var made = 0.0

    init(position: CameraPosition, frames: SyntheticFrames, pace: FramePace? = nil) {
        let clock = SteppedClock()
        camera = SyntheticCamera(position: position, frames: frames, clock: { clock.now })
        self.clock = clock
        self.pace = pace
    }

    var state: CameraState { camera.state }
    var videoFrameRate: Double? { camera.videoFrameRate }
    var videoFrameSize: (width: Int, height: Int)? { camera.videoFrameSize }

    func open() throws {
        guard camera.videoFrameSize == nil else { return }
        try camera.open()
        openedAt = clock.now
        made = 0
    }

    func close() { camera.close() }

    func capturePhoto() throws -> CapturedPhoto {
        step()
        return try camera.capturePhoto()
    }

    func withNextVideoFrame<T>(_ body: (VideoFrame) throws -> T) throws -> T {
        pace?.awaitTurn()
        step()
        return try camera.withNextVideoFrame(body)
    }

    @discardableResult func setZoom(_ factor: Double) throws -> Double { try camera.setZoom(factor) }
    func focus(atX x: Double, y: Double) throws -> (x: Double, y: Double) { try camera.focus(atX: x, y: y) }
    func setFlashMode(_ mode: FlashMode) throws { try camera.setFlashMode(mode) }

    /// To the middle of the next frame's interval: the synthetic camera finds that frame due, so it
    /// neither waits nor skips one.
    private func step() {
        clock.now = openedAt + (made + 0.5) / camera.frameRate
        made += 1
    }
}

/// The time a SteppedCamera's synthetic camera reads: set on the camera thread, read there too.
private final class SteppedClock: Sendable {
    private let time = Mutex(Date())

    var now: Date {
        get { time.withLock { $0 } }
        set { time.withLock { $0 = newValue } }
    }
}
