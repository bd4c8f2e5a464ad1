import Foundation
import LensBus
import LensContract
import LensCore
import LensFace

/// The claim holder's face auto-capture: the watch on the frame pipeline and where it stands.
final class FaceRun {
    enum State: String {
        case searching, candidateSelection = "candidate_selection", capturing
    }

    let session: Session
    let watch: FaceWatch
    var state = State.searching
    /// Bumped by RestartFaceAutoCapture: reports of an earlier run are dropped.
    var generation = 0

    init(session: Session, watch: FaceWatch) {
        self.session = session
        self.watch = watch
    }
}

/// StartFaceAutoCapture → (the camera facing the asked way) → FaceWatch on the frame pipeline →
/// FaceDetected per processed frame, CandidateSelectionStarted once → FaceAutoCaptureFinished →
/// the chosen frame through the photo flow (InitialCaptureFinished, PhotoSigned with that name).
/// It ends with StopFaceAutoCapture, the claim (StopCaptureSession, Close, disconnect) or the
/// camera failing; FaceAutoCaptureState follows it.
final class FaceFlow: CaptureFlow {
    private unowned let service: LensService
    private var run: FaceRun?
    /// The detector, its cascade read once, the first time it is asked for.
    private var cascade: Result<FaceDetector, LensError>?

    init(service: LensService) { self.service = service }

    func handle(_ effect: CaptureMachine.Effect) {
        if case .claimEnded(let holder) = effect, let session = run?.session, session.number == holder {
            end(of: session)
        }
    }

    /// The controller StartFaceAutoCapture runs, or why it cannot start (before any reply is deferred).
    func controller(for session: Session, options: FaceOptions) throws -> FaceAutoCapture<FrameCopy> {
        guard run?.session !== session else {
            throw LensError.busy("a face auto-capture is running: RestartFaceAutoCapture or StopFaceAutoCapture it first")
        }
        do { return try FaceAutoCapture(detector: try detector(), configuration: options.configuration) } catch {
            throw LensError.from(error)
        }
    }

    /// Requires the claim, photo mode and capture enabled (the session checks them).
    func start(for session: Session, controller: FaceAutoCapture<FrameCopy>, facing: CameraPosition, reply: DeferredReply) {
        let begin: () -> Void = { [weak self] in
            guard let self, self.service.machine.holds(session.number) else {
                return reply.fail(LensError.notStarted("the camera claim ended before the face auto-capture could start").busError)
            }
            self.begin(for: session, controller: controller)
            reply.reply([])
        }
        guard let target = service.cameras.index(facing: facing), target != service.cameras.currentIndex else {
            return begin()
        }
        // camera_facing: the claim moves to that camera, announced with DeviceChanged.
        service.controls.moveClaim(to: target, for: session) { result in
            switch result {
            case .success(let state):
                session.deviceChanged(state)
                begin()
            case .failure(let error): reply.fail(error.busError)
            }
        }
    }

    func state(of session: Session) -> String {
        guard let run, run.session === session else { return "idle" }
        return run.state.rawValue
    }

    /// The next processed frame is the result, whatever its quality.
    func requestCapture(for session: Session) throws {
        try running(of: session).watch.requestCapture()
    }

    func restart(for session: Session) throws {
        let run = try running(of: session)
        run.generation += 1
        run.watch.restart(generation: run.generation)
        stateChanged(run, .searching)
    }

    /// Idempotent: ends this session's auto-capture if it has one (a chosen frame being signed
    /// still ends in PhotoSigned).
    func end(of session: Session, failure: LensError? = nil) {
        guard let run, run.session === session else { return }
        if run.state != .capturing { detach(run) }
        self.run = nil
        if let failure { session.failed(failure) }
        session.propertiesChanged(["FaceAutoCaptureState": .string("idle")])
        // The claim could not be idle while it ran: from now on it can be, for clients waiting.
        service.transition { $0.ended(.faceAutoCapture) }
    }

    private func detector() throws -> FaceDetector {
        if let cascade { return try cascade.get() }
        let path = service.configuration.faceCascadePath
        let loaded = Result { () throws(LensError) -> FaceDetector in
            do { return FaceDetector(cascade: try LBPCascade(contentsOf: path)) } catch {
                throw .unsupported("face auto-capture needs the face cascade \(path) (face-cascade; Debian: opencv-data): \(error)")
            }
        }
        cascade = loaded
        return try loaded.get()
    }

    private func running(of session: Session) throws -> FaceRun {
        guard let run, run.session === session, run.state != .capturing else {
            throw LensError.notStarted("no face auto-capture is running: call StartFaceAutoCapture")
        }
        return run
    }

    private func begin(for session: Session, controller: FaceAutoCapture<FrameCopy>) {
        let back = service.loop.confine(self)
        let watch = FaceWatch(controller: controller) { watch, report in
            back.post { flow in flow.reported(report, from: watch) }
        }
        let run = FaceRun(session: session, watch: watch)
        self.run = run
        service.transition { $0.began(.faceAutoCapture) }
        service.cameras.rig.frames.attach(watch)
        session.propertiesChanged(["FaceAutoCaptureState": .string(run.state.rawValue)])
        service.pump.start()
    }

    private func reported(_ result: Result<FaceWatch.Report, Error>, from watch: FaceWatch) {
        guard let run, run.watch === watch, run.state != .capturing else { return }
        let report: FaceWatch.Report
        switch result {
        case .success(let r): report = r
        case .failure(let error):
            return end(of: run.session, failure: .internal("face detection failed: \(error)"))
        }
        guard report.generation == run.generation else { return }
        let session = run.session, step = report.step
        session.emit(.faceDetected, [Wire.faceDetection(step.detection, frame: report.sequence, luma: report.lumaSize)])
        if step.candidateSelectionStarted {
            session.emit(.candidateSelectionStarted, [])
            stateChanged(run, .candidateSelection)
        }
        guard let chosen = step.result else { return }
        detach(run)
        stateChanged(run, .capturing)
        let name = UUID().uuidString.lowercased()
        session.emit(.faceAutoCaptureFinished, [.string(name),
                                                 Wire.faceDetection(chosen.detection, frame: chosen.frame.sequence, luma: report.lumaSize)])
        guard let state = service.cameras.current else { return end(of: session, failure: .cameraSessionFailed("no camera")) }
        let photo = Result { try chosen.frame.capturedPhoto(state: state, quality: service.configuration.jpegQuality) }
            .mapError { LensError.internal("encoding the chosen frame failed: \($0)") as Error }
        Log.info("session \(session.number): face auto-capture chose frame \(chosen.frame.sequence) as \(name)")
        service.photos.signChosen(photo, name: name, for: session) { [weak self] in
            guard let self, self.run === run else { return }
            self.end(of: session)
        }
    }

    private func stateChanged(_ run: FaceRun, _ state: FaceRun.State) {
        guard run.state != state else { return }
        run.state = state
        run.session.propertiesChanged(["FaceAutoCaptureState": .string(state.rawValue)])
    }

    private func detach(_ run: FaceRun) {
        service.cameras.rig.frames.detach(run.watch)
        run.watch.stop()
    }
}

extension Wire {
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
