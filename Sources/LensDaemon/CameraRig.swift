import LensCamera
import LensCore
import LensSystem

/// The cameras and the thread they live on. Camera objects are not thread-safe, so every call to
/// them runs on `worker`; the bus thread keeps only snapshots of their state.
final class CameraRig: @unchecked Sendable {  // `cameras` are touched only by jobs on `worker`; the rest is immutable or locked
    // `cameras` is touched only by jobs on `worker`.
    private let cameras: [any Camera]
    private let worker = SerialWorker(name: "lensd-camera")
    let descriptions: [CameraDescription]
    /// The sinks that want the claimed camera's frames (the preview); see FramePump.
    let frames = FramePipeline()

    init(_ cameras: [any Camera]) {
        self.cameras = cameras
        descriptions = cameras.map(\.state.description)
    }

    var isEmpty: Bool { cameras.isEmpty }

    /// The state snapshots, read before the cameras are shared with the worker.
    func initialStates() -> [CameraState] { cameras.map(\.state) }

    /// Runs `body` on the camera thread with camera `index`, then `completion` with its result
    /// (on the camera thread too; callers post back to their loop).
    func run<T: Sendable>(on index: Int, _ body: @escaping @Sendable (any Camera) throws -> T,
                          completion: @escaping @Sendable (Result<T, Error>, CameraState) -> Void) {
        worker.submit { [self] in
            let camera = cameras[index]
            let result = Result { try body(camera) }
            completion(result, camera.state)
        }
    }

    /// Offers the next frame of the open camera to `frames`, then calls `completion` with false
    /// when no camera was open (ChangeCamera closes one before it opens the next).
    func offerNextFrame(completion: @escaping @Sendable (Result<Bool, Error>) -> Void) {
        worker.submit { [self] in
            guard let camera = cameras.first(where: { $0.videoFrameSize != nil }) else { return completion(.success(false)) }
            completion(Result { try camera.withNextVideoFrame { frames.deliver($0) }; return true })
        }
    }

    func stop() {
        worker.submit { [self] in cameras.forEach { $0.close() } }
        worker.stop()
    }
}
