import FoundationEssentials
import LensBus
import LensCamera
import LensContract
import LensCore
import LensFace

/// StartFaceAutoCapture → (the camera facing the asked way) → FaceWatch on the frame pipeline →
/// FaceDetected per processed frame, CandidateSelectionStarted once → FaceAutoCaptureFinished →
/// the chosen frame through PhotoPublisher (InitialCaptureFinished, PhotoSigned with that name).
/// The machine's `faceAutoCapture` attachment says while it runs: it ends with
/// StopFaceAutoCapture, its photo stored, the claim (StopCaptureSession, Close, disconnect) or the
/// camera failing; FaceAutoCaptureState follows it.
final class FaceFlow: CaptureFlow {
    typealias State = FaceAutoCapture<FrameCopy>.State

    private let host: MachineHost
    private let cameras: Cameras
    private let claimMove: ClaimMove
    private let publisher: PhotoPublisher
    private let configuration: Configuration
    private let loop: any LoopExecutor
    private var run: ClaimAttachment<FaceWatch>?
    /// The controller's state as its reports tell it; `finished` while the chosen frame is signed.
    private var state = State.searching
    /// Bumped by RestartFaceAutoCapture: reports of an earlier run are dropped.
    private var generation = 0
    /// The detector, its cascade read once, the first time it is asked for.
    private var cascade: Result<FaceDetector, LensError>?

    init(host: MachineHost, cameras: Cameras, publisher: PhotoPublisher, configuration: Configuration, loop: any LoopExecutor) {
        self.host = host
        self.cameras = cameras
        claimMove = ClaimMove(host: host, cameras: cameras)
        self.publisher = publisher
        self.configuration = configuration
        self.loop = loop
    }

    func handle(_ effect: CaptureMachine.Effect) {
        guard case .detached(.faceAutoCapture, let number, let failure) = effect, let run, run.belongs(to: number) else { return }
        if state != .finished { detach(run) }
        self.run = nil
        if let failure { run.session.failed(failure) }
        run.session.propertiesChanged(["FaceAutoCaptureState": .string(Wire.faceState(nil))])
    }

    /// The controller StartFaceAutoCapture runs, or why it cannot start (before any reply is deferred).
    func controller(for session: Session, options: FaceOptions) throws -> FaceAutoCapture<FrameCopy> {
        try host.require(by: session.number) { try $0.requireDetached(.faceAutoCapture) }
        do { return try FaceAutoCapture(detector: try detector(), configuration: options.configuration) } catch {
            throw LensError.from(error)
        }
    }

    /// Requires the claim, photo mode and capture enabled (the session checks them).
    func start(for session: Session, controller: FaceAutoCapture<FrameCopy>, facing: CameraPosition, reply: DeferredReply) {
        let begin: () -> Void = { [weak self] in
            guard let self, self.host.machine.holds(session.number) else {
                return reply.fail(LensError.notStarted("the camera claim ended before the face auto-capture could start").busError)
            }
            do { try self.begin(for: session, controller: controller) } catch let error as LensError {
                return reply.fail(error.busError)
            } catch {
                return reply.fail(LensError.from(error).busError)
            }
            reply.reply([])
        }
        guard let target = cameras.index(facing: facing), target != cameras.currentIndex else {
            return begin()
        }
        // camera_facing: the claim moves to that camera, announced with DeviceChanged.
        claimMove.move(to: target) { result in
            switch result {
            case .success(let state):
                session.deviceChanged(state)
                begin()
            case .failure(let error): reply.fail(error.busError)
            }
        }
    }

    func state(of session: Session) -> String {
        Wire.faceState(run?.session === session ? state : nil)
    }

    /// The next processed frame is the result, whatever its quality.
    func requestCapture(for session: Session) throws {
        try running(of: session).sink.requestCapture()
    }

    func restart(for session: Session) throws {
        let run = try running(of: session)
        generation += 1
        run.sink.restart(generation: generation)
        stateChanged(.searching)
    }

    /// Idempotent: ends this session's auto-capture if it has one (a chosen frame being signed
    /// still ends in PhotoSigned).
    func stop(of session: Session) {
        guard run?.session === session else { return }
        host.transition { $0.detach(.faceAutoCapture) }
    }

    private func detector() throws -> FaceDetector {
        if let cascade { return try cascade.get() }
        let path = configuration.faceCascadePath
        let loaded = Result { () throws(LensError) -> FaceDetector in
            do { return FaceDetector(cascade: try LBPCascade(contentsOf: path)) } catch {
                throw .unsupported("face auto-capture needs the face cascade \(path) (face-cascade; Debian: opencv-data): \(error)")
            }
        }
        cascade = loaded
        return try loaded.get()
    }

    private func running(of session: Session) throws -> ClaimAttachment<FaceWatch> {
        guard let run, run.session === session, state != .finished else {
            throw LensError.notStarted("no face auto-capture is running: call StartFaceAutoCapture")
        }
        return run
    }

    private func begin(for session: Session, controller: FaceAutoCapture<FrameCopy>) throws(LensError) {
        let back = loop.confine(self)
        let watch = FaceWatch(controller: controller) { watch, report in
            back.post { flow in flow.reported(report, from: watch) }
        }
        let run = ClaimAttachment(session: session, sink: watch)
        // On the pipeline before the machine says it is attached, so the frames flow at once.
        cameras.rig.frames.attach(watch)
        do { try host.transition(by: session.number) { try $0.attach(.faceAutoCapture, by: session.number) } } catch {
            detach(run)
            throw error
        }
        self.run = run
        state = .searching
        generation = 0
        session.propertiesChanged(["FaceAutoCaptureState": .string(Wire.faceState(state))])
    }

    private func reported(_ result: Result<FaceWatch.Report, Error>, from watch: FaceWatch) {
        guard let run, run.sink === watch, state != .finished else { return }
        let report: FaceWatch.Report
        switch result {
        case .success(let r): report = r
        case .failure(let error):
            return host.transition { $0.detach(.faceAutoCapture, failure: .internal("face detection failed: \(error)")) }
        }
        guard report.generation == generation else { return }
        let session = run.session, step = report.step
        session.emit(.faceDetected, [Wire.faceDetection(step.detection, frame: report.sequence, luma: report.lumaSize)])
        if step.candidateSelectionStarted {
            session.emit(.candidateSelectionStarted, [])
            stateChanged(.candidateSelection)
        }
        guard let chosen = step.result else { return }
        detach(run)
        stateChanged(.finished)
        let ticket = host.beginCapture(.photo, name: UUID().uuidString.lowercased(), session: session.number)
        session.emit(.faceAutoCaptureFinished, [.string(ticket.name),
                                                Wire.faceDetection(chosen.detection, frame: chosen.frame.sequence, luma: report.lumaSize)])
        let photo = Result { () throws -> CapturedPhoto in
            guard let state = cameras.current else { throw LensError.cameraSessionFailed("no camera") }
            do { return try chosen.frame.capturedPhoto(state: state, quality: configuration.jpegQuality) } catch {
                throw LensError.internal("encoding the chosen frame failed: \(error)")
            }
        }
        Log.info("session \(session.number): face auto-capture chose frame \(chosen.frame.sequence) as \(ticket.name)")
        publisher.publish(photo, ticket: ticket, for: session) { [weak self] in
            guard let self, self.run === run else { return }
            self.host.transition { $0.detach(.faceAutoCapture) }
        }
    }

    private func stateChanged(_ new: State) {
        guard let run, state != new else { return }
        state = new
        run.session.propertiesChanged(["FaceAutoCaptureState": .string(Wire.faceState(new))])
    }

    private func detach(_ run: ClaimAttachment<FaceWatch>) {
        cameras.rig.frames.detach(run.sink)
        run.sink.stop()
    }
}

extension Wire {
    /// FaceAutoCaptureState: idle (nil), searching, candidate_selection, or capturing while the
    /// chosen frame is signed.
    static func faceState(_ state: FaceFlow.State?) -> String {
        switch state {
        case nil: "idle"
        case .searching?: "searching"
        case .candidateSelection?: "candidate_selection"
        case .finished?: "capturing"
        }
    }

    /// FaceDetected's and FaceAutoCaptureFinished's a{sv}: the face's rectangle normalized as
    /// (left, top, right, bottom) of the frame, its quality; only `frame`, `face`, `instruction`
    /// and `valid` when no face was found.
    static func faceDetection(_ detection: FaceDetection, frame: UInt64, luma: (width: Int, height: Int)) -> BusValue {
        var fields: [String: BusValue] = [
            "frame": .uint64(frame),
            "face": .bool(detection.face != nil),
            "instruction": .string(detection.instruction.key),
            "valid": .bool(detection.isValid),
        ]
        if let face = detection.face {
            let r = face.rectangle, w = Double(luma.width), h = Double(luma.height)
            fields["rectangle"] = .structure([.double(Double(r.x) / w), .double(Double(r.y) / h),
                                              .double(Double(r.x + r.width) / w), .double(Double(r.y + r.height) / h)])
            fields["confidence"] = .double(Double(face.confidence))
            fields["size"] = .double(face.quality.size)
            fields["center_offset"] = .double(face.quality.centerOffset)
            fields["brightness"] = .double(face.quality.brightness)
            fields["sharpness"] = .double(face.quality.sharpness)
        }
        return .vardict(fields)
    }
}
