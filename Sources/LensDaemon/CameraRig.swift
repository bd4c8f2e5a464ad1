import LensCamera
import LensCore
import LensSystem

/// The cameras and the thread they live on. Camera objects are not thread-safe, so every call to
/// them runs on `worker`; the bus thread keeps only snapshots of their state.
final class CameraRig: Sendable {
    private let worker = SerialWorker(name: "lensd-camera")
    private let cameras: Confined<[any Camera]>
    let descriptions: [CameraDescription]
    /// The state snapshots, read before the cameras went to the worker.
    let initialStates: [CameraState]
    /// The sinks that want the claimed camera's frames (the preview); see FramePump.
    let frames = FramePipeline()

    init(_ cameras: [any Camera]) {
        initialStates = cameras.map(\.state)
        descriptions = initialStates.map(\.description)
        self.cameras = Confined(cameras, on: worker)
    }

    var isEmpty: Bool { descriptions.isEmpty }

    /// State of another holder's that only jobs on the camera thread touch (a recording's recorder).
    func confined<State>(_ state: State) -> Confined<State> { Confined(state, on: worker) }

    /// Runs `body` on the camera thread with camera `index`, then `completion` with its result
    /// (on the camera thread too; callers post back to their loop).
    func run<T: Sendable>(on index: Int, _ body: @escaping @Sendable (any Camera) throws -> T,
                          completion: @escaping @Sendable (Result<T, Error>, CameraState) -> Void) {
        cameras.submit { cameras in
            let camera = cameras[index]
            let result = Result { try body(camera) }
            completion(result, camera.state)
        }
    }

    /// Offers the next frame of the open camera to `frames`, then calls `completion` with false
    /// when no camera was open (ChangeCamera closes one before it opens the next).
    func offerNextFrame(completion: @escaping @Sendable (Result<Bool, Error>) -> Void) {
        cameras.submit { [frames] cameras in
            guard let camera = cameras.first(where: { $0.videoFrameSize != nil }) else { return completion(.success(false)) }
            completion(Result { try camera.withNextVideoFrame { frames.deliver($0) }; return true })
        }
    }

    func stop() {
        cameras.submit { $0.forEach { $0.close() } }
        worker.stop()
    }
}
