import Glibc
import LensBus
import LensCore

/// The claim holder's live preview: the stream on the frame pipeline and whose it is.
final class LivePreview {
    let session: Session
    let stream: PreviewStream

    init(session: Session, stream: PreviewStream) {
        self.session = session
        self.stream = stream
    }
}

/// OpenPreview → the camera's frame size and rate asked on its thread → a PreviewStream on the
/// frame pipeline, whose pipe's read end goes to the owner. It ends with ClosePreview, a new
/// OpenPreview, the claim (StopCaptureSession, Close, the owner's disconnect), ChangeCamera, the
/// reader closing its end, or the camera failing; the owner sees PreviewActive turn false.
final class PreviewFlow: CaptureFlow {
    private unowned let service: LensService
    private var preview: LivePreview?

    init(service: LensService) { self.service = service }

    func handle(_ effect: CaptureMachine.Effect) {
        if case .claimEnded(let holder) = effect, let session = preview?.session, session.number == holder {
            end(of: session)
        }
    }

    /// Requires the claim (the session's table checks it).
    func open(for session: Session, options asked: PreviewOptions, reply: DeferredReply) {
        service.cameras.run({ camera in camera.videoFrameSize.map { Streaming(size: $0, rate: camera.videoFrameRate) } }) {
            [weak self] result, _ in
            self?.start(for: session, asked: asked, camera: result, reply: reply)
        }
    }

    private func start(for session: Session, asked: PreviewOptions, camera: Result<Streaming?, Error>, reply: DeferredReply) {
        guard service.machine.holds(session.number) else {
            return reply.fail(LensError.notStarted("the camera claim ended before the preview could start").busError)
        }
        guard case .success(let streaming?) = camera else {
            return reply.fail(LensError.cameraSessionFailed("the camera is not streaming").busError)
        }
        let format = PreviewFormat(fitting: streaming.size, into: asked.box, fps: asked.fps, cameraRate: streaming.rate,
                                   quality: asked.quality)
        let opened: (stream: PreviewStream, readEnd: Int32)
        let back = service.loop.confine(self)
        do {
            opened = try PreviewStream.open(format: format) { stream, error in
                let error = error.map { "\($0)" }
                back.post { flow in flow.streamEnded(stream, error: error) }
            }
        } catch {
            return reply.fail(LensError.internal("cannot make the preview pipe: \(error)").busError)
        }
        let wasActive = preview != nil
        if let old = preview { stop(old) }
        preview = LivePreview(session: session, stream: opened.stream)
        service.transition { $0.began(.preview) }
        service.cameras.rig.frames.attach(opened.stream)
        // The reply dup()s the read end when it is built; ours is closed right after.
        reply.reply([.fd(opened.readEnd), Wire.previewFormat(format)])
        Glibc.close(opened.readEnd)
        Log.info("session \(session.number): preview \(format.width)x\(format.height) at \(format.fps) fps\(wasActive ? " (replacing the last)" : "")")
        if !wasActive { session.propertiesChanged(["PreviewActive": .bool(true)]) }
        service.pump.start()
    }

    /// Idempotent: ends this session's preview if it has one.
    func end(of session: Session, failure: LensError? = nil) {
        guard let live = preview, live.session === session else { return }
        stop(live)
        preview = nil
        if let failure {
            Log.warning("session \(session.number): preview ended: \(failure.busError.message)")
            session.failed(failure)
        }
        session.propertiesChanged(["PreviewActive": .bool(false)])
        service.transition { $0.ended(.preview) }
    }

    func stats(of session: Session) -> BusValue {
        Wire.previewStats(preview?.session === session ? preview?.stream.stats : nil)
    }

    func isActive(for session: Session) -> Bool { preview?.session === session }

    /// The reader closed its end (nil) or writing failed; a stream replaced meanwhile is closed already.
    private func streamEnded(_ stream: PreviewStream, error: String?) {
        guard let live = preview, live.stream === stream else { return }
        Log.info("session \(live.session.number): the preview's reader \(error.map { "failed: \($0)" } ?? "closed the pipe")")
        end(of: live.session, failure: error.map { .internal("writing the preview failed: \($0)") })
    }

    private func stop(_ live: LivePreview) {
        service.cameras.rig.frames.detach(live.stream)
        live.stream.close()
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
