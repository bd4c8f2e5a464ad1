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
extension LensService {
    /// Requires the claim (checked by the caller).
    func openPreview(for session: Session, options asked: PreviewOptions, reply: DeferredReply) {
        rig.run(on: currentCamera, { camera in camera.videoFrameSize.map { Streaming(size: $0, rate: camera.videoFrameRate) } }) {
            [weak self] result, _ in
            self?.loop.post { [weak self] in self?.startPreview(for: session, asked: asked, camera: result, reply: reply) }
        }
    }

    private func startPreview(for session: Session, asked: PreviewOptions, camera: Result<Streaming?, Error>,
                              reply: DeferredReply) {
        guard claimHolder === session else {
            return reply.fail(LensError.notStarted("the camera claim ended before the preview could start").busError)
        }
        guard case .success(let streaming?) = camera else {
            return reply.fail(LensError.cameraSessionFailed("the camera is not streaming").busError)
        }
        let format = PreviewFormat(fitting: streaming.size, into: asked.box, fps: asked.fps, cameraRate: streaming.rate,
                                   quality: asked.quality)
        let opened: (stream: PreviewStream, readEnd: Int32)
        do {
            opened = try PreviewStream.open(format: format) { [weak self] stream, error in
                let stream = LoopBound(stream)
                self?.loop.post { [weak self] in self?.previewStreamEnded(stream.value, error: error) }
            }
        } catch {
            return reply.fail(LensError.internal("cannot make the preview pipe: \(error)").busError)
        }
        let wasActive = preview != nil
        if let old = preview { stop(old) }
        let live = LivePreview(session: session, stream: opened.stream)
        preview = live
        rig.frames.attach(opened.stream)
        // The reply dup()s the read end when it is built; ours is closed right after.
        reply.reply([.fd(opened.readEnd), Wire.previewFormat(format)])
        Glibc.close(opened.readEnd)
        Log.info("session \(session.number): preview \(format.width)x\(format.height) at \(format.fps) fps\(wasActive ? " (replacing the last)" : "")")
        if !wasActive { previewActiveChanged(session, true) }
        pumpFrames()
    }

    /// Idempotent: ends this session's preview if it has one.
    func endPreview(of session: Session, failure: LensError? = nil) {
        guard let live = preview, live.session === session else { return }
        stop(live)
        preview = nil
        if let failure {
            Log.warning("session \(session.number): preview ended: \(failure.busError.message)")
            session.failed(failure)
        }
        previewActiveChanged(session, false)
    }

    func previewStats(of session: Session) -> BusValue {
        Wire.previewStats(preview?.session === session ? preview?.stream.stats : nil)
    }

    func isPreviewing(_ session: Session) -> Bool { preview?.session === session }

    /// The reader closed its end (nil) or writing failed; a stream replaced meanwhile is closed already.
    private func previewStreamEnded(_ stream: PreviewStream, error: Error?) {
        guard let live = preview, live.stream === stream else { return }
        Log.info("session \(live.session.number): the preview's reader \(error.map { "failed: \($0)" } ?? "closed the pipe")")
        endPreview(of: live.session, failure: error.map { .internal("writing the preview failed: \($0)") })
    }

    private func stop(_ live: LivePreview) {
        rig.frames.detach(live.stream)
        live.stream.close()
    }

    private func previewActiveChanged(_ session: Session, _ active: Bool) {
        try? bus.emitPropertiesChanged(path: session.path, interface: Session.interfaceName,
                                       changed: ["PreviewActive": .bool(active)], destination: session.owner)
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
