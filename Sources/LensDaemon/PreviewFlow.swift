import Glibc
import LensBus
import LensCamera
import LensCore
import LensSystem

/// OpenPreview → the camera's frame size and rate asked on its thread → a PreviewStream on the
/// frame pipeline, whose pipe's read end goes to the owner. The machine's `preview` attachment
/// says while it runs: it ends with ClosePreview, a new OpenPreview, the claim (StopCaptureSession,
/// Close, the owner's disconnect), a camera switch, the reader closing its end, or the camera
/// failing; the owner sees PreviewActive turn false.
final class PreviewFlow: CaptureFlow {
    private let host: MachineHost
    private let cameras: Cameras
    private let clock: LensClock
    private let loop: any LoopExecutor
    private var preview: ClaimAttachment<PreviewStream>?
    /// The frames written as last seen, and when they last grew: whether the reader reads.
    private var read: (frames: UInt64, at: ContinuousClock.Instant)?

    init(host: MachineHost, cameras: Cameras, clock: LensClock, loop: any LoopExecutor) {
        self.host = host
        self.cameras = cameras
        self.clock = clock
        self.loop = loop
    }

    func handle(_ effect: CaptureMachine.Effect) {
        guard case .detached(.preview, let number, let failure) = effect, let live = preview, live.belongs(to: number) else { return }
        stop(live)
        preview = nil
        if let failure {
            Log.warning("session \(number): preview ended: \(failure.message)")
            live.session.failed(failure)
        }
        live.session.propertiesChanged(["PreviewActive": .bool(false)])
    }

    /// Requires the claim (the session's table checks it).
    func open(for session: Session, options asked: PreviewOptions, reply: DeferredReply) {
        cameras.run({ camera in camera.videoFrameSize.map { Streaming(size: $0, rate: camera.videoFrameRate) } }) {
            [weak self] result, _ in
            self?.start(for: session, asked: asked, camera: result, reply: reply)
        }
    }

    /// Idempotent: ends this session's preview if it has one.
    func close(of session: Session) {
        guard preview?.session === session else { return }
        host.transition { $0.detach(.preview) }
    }

    func stats(of session: Session) -> BusValue {
        Wire.previewStats(preview?.session === session ? preview?.sink.stats : nil)
    }

    func isActive(for session: Session) -> Bool { preview?.session === session }

    /// Whether the reader took a frame within `interval`: an open preview nobody reads is no use
    /// of the claim while others wait (CameraClaim asks). Looked at from the frames written.
    func isRead(within interval: Duration) -> Bool {
        guard let stream = preview?.sink else { return false }
        let frames = stream.stats.frames, now = clock.monotonic()
        if let read, read.frames == frames { return now - read.at < interval }
        read = (frames, now)
        return true
    }

    private func start(for session: Session, asked: PreviewOptions, camera: Result<Streaming?, Error>, reply: DeferredReply) {
        guard host.machine.holds(session.number) else {
            return reply.fail(LensError.notStarted("the camera claim ended before the preview could start").busError)
        }
        guard case .success(let streaming?) = camera else {
            return reply.fail(LensError.cameraSessionFailed("the camera is not streaming").busError)
        }
        let format = PreviewFormat(fitting: streaming.size, into: asked.box, fps: asked.fps, cameraRate: streaming.rate,
                                   quality: asked.quality)
        let opened: (stream: PreviewStream, readEnd: Int32)
        let back = loop.confine(self)
        do {
            opened = try PreviewStream.open(format: format) { stream, error in
                let error = error.map { "\($0)" }
                back.post { flow in flow.streamEnded(stream, error: error) }
            }
        } catch {
            return reply.fail(LensError.internal("cannot make the preview pipe: \(error)").busError)
        }
        // A new preview replaces the last, which ends first (PreviewActive stays true).
        let replacing = preview
        if let replacing {
            stop(replacing)
            preview = nil
            host.transition { $0.detach(.preview) }
        }
        preview = ClaimAttachment(session: session, sink: opened.stream)
        read = nil
        cameras.rig.frames.attach(opened.stream)
        // The reply dup()s the read end when it is built; ours is closed right after.
        reply.reply([.fd(opened.readEnd), Wire.previewFormat(format)])
        try? FileDescriptor(adopting: opened.readEnd).close()
        Log.info("session \(session.number): preview \(format.width)x\(format.height) at \(format.fps) fps\(replacing == nil ? "" : " (replacing the last)")")
        if replacing == nil { session.propertiesChanged(["PreviewActive": .bool(true)]) }
        host.transition { (try? $0.attach(.preview, by: session.number)) ?? [] }
    }

    /// The reader closed its end (nil) or writing failed; a stream replaced meanwhile is closed already.
    private func streamEnded(_ stream: PreviewStream, error: String?) {
        guard let live = preview, live.sink === stream else { return }
        Log.info("session \(live.session.number): the preview's reader \(error.map { "failed: \($0)" } ?? "closed the pipe")")
        host.transition { $0.detach(.preview, failure: error.map { .internal("writing the preview failed: \($0)") }) }
    }

    private func stop(_ live: ClaimAttachment<PreviewStream>) {
        cameras.rig.frames.detach(live.sink)
        live.sink.close()
    }
}

/// What the open camera streams, as the camera thread reports it.
private struct Streaming: Sendable {
    var size: (width: Int, height: Int)
    var rate: Double?
}

extension Wire {
    static func previewFormat(_ format: PreviewFormat) -> BusValue {
        .vardict([
            "mime": .string("image/jpeg"),
            "framing": .string("mjpeg"),
            "width": .uint32(UInt32(format.width)),
            "height": .uint32(UInt32(format.height)),
            "fps": .double(format.fps),
        ])
    }

    /// Empty when the session has no preview.
    static func previewStats(_ stats: PreviewStats?) -> BusValue {
        guard let stats else { return .vardict([:]) }
        return .vardict(["frames": .uint64(stats.frames), "dropped": .uint64(stats.dropped), "fps": .double(stats.fps)])
    }
}
