import Foundation
import LensCamera
import LensCore
import LensMedia
import LensSystem
import Synchronization

/// A camera on its own thread, as lensd's CameraRig: while pumping, one frame per job goes to
/// `pipeline`, and photos and recordings queued meanwhile run between two frames.
final class BenchRig: Sendable {
    let pipeline = FramePipeline()
    private let worker = SerialWorker(name: "bench-camera")
    private let camera: Confined<SyntheticCamera>
    private let pumping = Atomic(false)

    init(_ camera: SyntheticCamera) {
        self.camera = Confined(camera, on: worker)
        onCameraNoResult { try? $0.open() }
    }

    func startPumping() {
        pumping.store(true, ordering: .relaxed)
        pump()
    }

    func stopPumping() {
        pumping.store(false, ordering: .relaxed)
        onCameraNoResult { _ in }  // the last pump job has run
    }

    /// Runs `body` on the camera thread and waits for it.
    func onCamera<T>(_ body: @escaping @Sendable (SyntheticCamera) throws -> T) throws -> T {
        // Handed over by the semaphore: written on the camera thread before signal(), read after wait().
        nonisolated(unsafe) var result: Result<T, Error>?
        let done = DispatchSemaphore(value: 0)
        camera.submit { camera in
            result = Result { try body(camera) }
            done.signal()
        }
        done.wait()
        return try result!.get()
    }

    /// Records `seconds` of camera-paced frames, one per job, each passed on to the pipeline as
    /// lensd's recording does; then finalizes and hands the file to `sign`. Stop → signed, in ms.
    func record(seconds: Double, to path: String, sign: @escaping @Sendable (FinalizedMP4) throws -> Void) throws -> Double {
        let wasPumping = pumping.exchange(false, ordering: .relaxed)
        defer { if wasPumping { startPumping() } }
        let recorder = try onCamera { VideoRecorder(path: path, encoding: .h264(bitrate: nil), frameRate: $0.frameRate, creationTime: Date()) }
        nonisolated(unsafe) let shared = recorder
        while try onCamera({ [pipeline] camera in
            try camera.withNextVideoFrame { frame in
                try shared.append(frame)
                pipeline.deliver(frame)
            }
            return shared.duration < seconds
        }) {}
        let start = ContinuousClock.now
        try onCamera { _ in try sign(try shared.finish()) }
        return PreviewBench.milliseconds(.now - start)
    }

    func stop() {
        stopPumping()
        onCameraNoResult { $0.close() }
        worker.stop()
    }

    private func pump() {
        camera.submit { [self] camera in
            guard pumping.load(ordering: .relaxed) else { return }
            try? camera.withNextVideoFrame { pipeline.deliver($0) }
            pump()
        }
    }

    private func onCameraNoResult(_ body: @escaping @Sendable (SyntheticCamera) -> Void) {
        _ = try? onCamera(body)
    }
}
