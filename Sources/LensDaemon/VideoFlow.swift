import C2PA
import Foundation
import LensBus
import LensContract
import LensCore
import Synchronization

/// One recording in progress, shared by the loop and the camera thread.
final class Recording: @unchecked Sendable {  // the recorder and `facts` change on the camera thread only; the rest is immutable or atomic
    let name: String
    let uid: UInt32
    /// Changed by the camera thread while recording (see recorded(withDigitalZoom:)); read on
    /// the loop once the recording has ended.
    private(set) var facts: VideoSigning.Facts
    let fix: LocationFix?
    let path: String
    let encoding: VideoEncoding
    /// The camera's digital zoom applies to its video frames (the synthetic camera): the zoom of
    /// each recorded frame is then looked at; other cameras record frames as the device delivers them.
    let tracksDigitalZoom: Bool
    /// Set on the loop (StopVideoCapture, the claim ending); read by the camera thread between frames.
    let stopRequested = Atomic<Bool>(false)
    /// What VideoRecordingProgress shows, updated by the camera thread after every frame.
    let recordedMilliseconds = Atomic<Int>(0)
    let recordedBytes = Atomic<Int>(0)
    /// Made by the first frame's job, at the rate the open camera streams; camera thread only.
    private var recorder: VideoRecorder?
    /// Capturing from StartVideoCapture on; handed to the recorder with the first frame.
    private let microphone: Microphone?

    init(name: String, uid: UInt32, facts: VideoSigning.Facts, fix: LocationFix?, path: String,
         encoding: VideoEncoding, tracksDigitalZoom: Bool, microphone: Microphone?) {
        self.name = name
        self.uid = uid
        self.facts = facts
        self.fix = fix
        self.path = path
        self.encoding = encoding
        self.tracksDigitalZoom = tracksDigitalZoom
        self.microphone = microphone
    }

    /// Whether the recording captures sound (it holds the audio device).
    var hasMicrophone: Bool { microphone != nil }

    /// Camera thread, after each recorded frame. A zoom that changes while recording has no one
    /// ratio: exif:DigitalZoomRatio says the largest any recorded frame was made with — how far
    /// the picture was at most enlarged — and the facts kept for recovery follow it.
    func recorded(withDigitalZoom ratio: Double?) {
        guard let ratio, ratio > (facts.digitalZoomRatio ?? 1) else { return }
        facts.digitalZoomRatio = ratio
        do {
            try RecordingFacts(facts: facts, fix: fix).write(besides: path)
        } catch {
            Log.warning("video \(name): the zoom of \(ratio) is not in the facts kept for recovery: \(error)")
        }
    }

    /// Camera thread.
    func recorder(for camera: any Camera) -> VideoRecorder {
        if let recorder { return recorder }
        let made = VideoRecorder(path: path, encoding: encoding, frameRate: camera.videoFrameRate ?? 30,
                                 creationTime: facts.startTime, microphone: microphone)
        recorder = made
        return made
    }
}

/// The video flow: StartVideoCapture → frames pumped on the camera thread into a crash-safe
/// journal → StopVideoCapture (or a limit, a fault, the claim ending) → finalized →
/// VideoRecordingStopped (then VideoRecordingFailed when a fault ended it),
/// VideoThumbnailGenerated → signed in place on the signing thread (`publish`) → published →
/// VideoSigned, or VideoUnsigned with the playable file kept when signing fails. Recovery after a
/// crash (VideoRecovery) joins at `publish`.
final class VideoFlow: CaptureFlow {
    private unowned let service: LensService
    /// The recording the machine says is under way, as the camera thread records it.
    private var recording: Recording?

    init(service: LensService) { self.service = service }

    func handle(_ effect: CaptureMachine.Effect) {
        switch effect {
        case .stopRecording(let name) where recording?.name == name:
            recording?.stopRequested.store(true, ordering: .relaxed)
        case .recordingChanged(let session, let recording):
            service.sessions[session]?.recordingChanged(recording)
        default: break
        }
    }

    /// Whether the recording under way holds the microphone.
    var holdsMicrophone: Bool { recording?.hasMicrophone == true }

    /// VideoRecordingProgress: the session's recording, or an empty one.
    func progress(of session: Session) -> BusValue {
        Wire.progress(service.machine.recording?.session == session.number ? recording : nil)
    }

    /// Requires the claim, video mode and capture enabled (the session checks them).
    func start(for session: Session) throws {
        if let active = service.machine.recording {
            throw LensError.busy(active.session == session.number ? "this session is already recording"
                                                                  : "another session is recording")
        }
        guard let state = service.cameras.current else { throw LensError.cameraSessionFailed("no camera is available") }
        let name = UUID().uuidString.lowercased()
        let facts = VideoSigning.Facts(
            startTime: service.clock.wall(), make: state.description.driver, model: state.description.name,
            isSynthetic: state.isSynthetic, digitalZoomRatio: state.videoDigitalZoomRatio)
        let fix = service.conditions.fixToRecord(accuracy: session.maximumLocationAccuracy)
        let microphone = try service.microphone.open(for: session, recording: name)
        let path: String
        do {
            path = try service.store.recordingPath(name: name, uid: session.uid)
            // What the manifest will say, kept beside the journal for recovery after a crash.
            try RecordingFacts(facts: facts, fix: fix).write(besides: path)
        } catch {
            microphone?.stop()
            throw LensError.internal("cannot prepare the recording: \(error)")
        }
        let recording = Recording(name: name, uid: session.uid, facts: facts, fix: fix, path: path,
                                  encoding: service.configuration.videoEncoding,
                                  tracksDigitalZoom: state.digitalZoom && state.zoomAppliesToVideo, microphone: microphone)
        do { try service.transition(by: session) { try $0.startRecording(name, by: session.number) } } catch {
            microphone?.stop()
            service.store.discardRecording(name: name, uid: session.uid)
            RecordingFacts.remove(besides: path)
            throw error
        }
        self.recording = recording
        Log.info("video \(name): recording for \(Authorizer.userName(session.uid))"
                 + (microphone == nil ? ", without sound" : ", with sound from \(service.configuration.audioDevice)"))
        pump(recording, rig: service.cameras.rig, camera: service.cameras.currentIndex)
    }

    /// Idempotent for the recording session; the end is announced by signals.
    func stop(for session: Session) throws {
        try service.transition(by: session) { try $0.stopRecording(by: session.number) }
    }

    /// One frame per camera-thread job, so controls queued meanwhile run between frames.
    private func pump(_ recording: Recording, rig: CameraRig, camera: Int) {
        let limits = RecordingLimits(service.configuration)
        let back = service.loop.confine(self)
        rig.run(on: camera, { camera -> RecordingStep in
            let recorder = recording.recorder(for: camera)
            let end = { (fault: LensError?, limit: RecordingLimits.Limit?) in
                let video = Result { try recorder.finish() }
                return RecordingStep.finished(video, recorder.thumbnail, fault ?? recorder.lastFragmentFailure.map(LensError.from),
                                              limit: limit)
            }
            if recording.stopRequested.load(ordering: .relaxed) { return end(nil, nil) }
            do {
                // Whole into the recording first; the preview only gets its turn afterwards.
                let started = recorder.origin != nil
                try camera.withNextVideoFrame { frame in
                    try recorder.append(frame)
                    rig.frames.deliver(frame)
                }
                if !started, let origin = recorder.origin {
                    Log.debug("video \(recording.name): time 0 is CLOCK_MONOTONIC \(String(format: "%.6f", origin)) s")
                }
                if recording.tracksDigitalZoom { recording.recorded(withDigitalZoom: camera.state.videoDigitalZoomRatio) }
            } catch {
                return end(LensError.from(error), nil)
            }
            recording.recordedMilliseconds.store(Int(recorder.duration * 1000), ordering: .relaxed)
            recording.recordedBytes.store(recorder.size, ordering: .relaxed)
            if let limit = limits.reached(duration: recorder.duration, finishedSize: recorder.projectedSize(withNextFrame: true)) {
                Log.info("video \(recording.name): stopping at \(limit.description)")
                return end(nil, limit)
            }
            return .recording
        }) { result, _ in
            switch result {
            case .success(.recording): back.post { $0.pump(recording, rig: rig, camera: camera) }
            case .success(.finished(let video, let thumbnail, let fault, let limit)):
                back.post { $0.ended(recording, video: video, thumbnail: thumbnail, fault: fault, limit: limit) }
            case .failure(let error):
                back.post { $0.ended(recording, video: .failure(error), thumbnail: nil, fault: LensError.from(error), limit: nil) }
            }
        }
    }

    private func ended(_ recording: Recording, video: Result<FinalizedMP4, Error>, thumbnail: [UInt8]?, fault: LensError?,
                       limit: RecordingLimits.Limit?) {
        let session = service.machine.recording.flatMap { $0.name == recording.name ? service.sessions[$0.session] : nil }
        if self.recording === recording { self.recording = nil }
        // The recording ends: frames stop and a waiting stop may finish once it is published.
        service.transition { $0.captureStarted() }
        service.transition { $0.recordingEnded(recording.name) }
        // As the SDK's "did stop recording": frames stopped, whatever stopped them; a fault follows.
        session?.emit(.videoRecordingStopped, [])
        // A fault, or nothing to keep (stopped before a frame was written): the owner hears why,
        // since no VideoSigned follows.
        let failure: LensError? = switch video {
        case .success: fault
        case .failure(let error): fault ?? LensError.from(error)
        }
        if let failure {
            Log.error("video \(recording.name): recording failed: \(failure.busError.message)")
            session?.emit(.videoRecordingFailed, [.string(failure.busError.name), .string(failure.busError.message)])
        }
        guard case .success(let finalized) = video else {
            if case .failure(VideoRecordingError.noFrames) = video {
                service.store.discardRecording(name: recording.name, uid: recording.uid)
                RecordingFacts.remove(besides: recording.path)
            } else {
                // Frames may be in the journal: never deleted, the next start finalizes and publishes them.
                Log.warning("video \(recording.name): the journal stays at \(recording.path); lensd recovers it when it starts again")
            }
            service.transition { $0.captureEnded() }
            return
        }
        session?.emit(.videoThumbnailGenerated, [.string(recording.name), .bytes(thumbnail ?? []),
                                                  .double(finalized.duration)])
        publish(finalized, name: recording.name, uid: recording.uid, facts: recording.facts, fix: recording.fix,
                session: session, recovered: false, limit: limit)
    }

    /// A finished recording (counted in flight already): signed in place on the signing thread
    /// (or kept unsigned, saying why), published and announced — to `session`, or for a recovered
    /// one to its owner's sessions.
    func publish(_ video: FinalizedMP4, name: String, uid: UInt32, facts: VideoSigning.Facts?, fix: LocationFix?,
                 session: Session?, recovered: Bool, limit: RecordingLimits.Limit? = nil) {
        // A certificate that expired while recording would sign a manifest no validator accepts.
        let publishing = service.signing.identity.state(at: service.clock.wall()) == .enrolled ? service.publishing : nil
        let problem = service.signing.problem ?? "the device certificate expired before the recording could be signed"
        let store = service.store
        let back = service.loop.confine((flow: self, session: session))
        service.signingWorker.submit {
            let unsignedReason: String?
            var signingResult: Result<TimeStamping.Outcome?, Error> = .success(nil)
            do {
                guard let publishing else { throw LensError.enrollment(problem) }
                guard let facts else { throw LensError.imageSigningFailed("what the recording was made with was lost in the crash") }
                let signing = VideoSigning(signer: publishing.signer, generator: Publishing.generator,
                                           timeStamping: publishing.timeStamping)
                signingResult = .success(try signing.sign(video, facts: facts, location: fix))
                unsignedReason = nil
            } catch {
                signingResult = .failure(error)
                unsignedReason = LensError.from(error).busError.message
            }
            let timeStamp = publishing?.timeStampOutcome(of: signingResult)
            // Kept whatever signing said, as the SDK keeps a video it cannot sign: under
            // `timestamp = required` one the TSA could not stamp is published unsigned, saying why.
            let published = Result { try store.publishRecording(name: name, uid: uid, signed: unsignedReason == nil, recovered: recovered) }
            if case .success = published { RecordingFacts.remove(besides: video.path) }
            let upload = publishing?.kept(try? published.get(), signed: unsignedReason == nil, outcome: timeStamp,
                                          fileExtension: "mp4") ?? "disabled"
            back.post { context in
                context.flow.service.timeStampFound(timeStamp)
                context.flow.published(name: name, uid: uid, video: video, result: published, unsignedReason: unsignedReason,
                                       timeStamp: timeStamp, session: context.session, recovered: recovered, upload: upload,
                                       limit: limit)
            }
        }
    }

    private func published(name: String, uid: UInt32, video: FinalizedMP4, result: Result<StoredResult, Error>,
                           unsignedReason: String?, timeStamp: TimeStamping.Outcome?, session: Session?, recovered: Bool,
                           upload: String, limit: RecordingLimits.Limit?) {
        defer { service.transition { $0.captureEnded() } }
        switch result {
        case .success(let stored):
            var info: [String: BusValue] = ["duration": .double(video.duration), "frames": .uint32(UInt32(clamping: video.sampleCount)),
                                            "audio": .bool(video.audioDuration != nil), "upload": .string(upload)]
            if recovered { info["recovered"] = .bool(true) }
            if let limit { info["limit"] = .string(limit.key) }
            let owner = Authorizer.userName(stored.uid)
            let signal: Lens1.Signal
            if let unsignedReason {
                info["reason"] = .string(unsignedReason)
                Log.warning("video \(name) of \(owner) kept unsigned (\(stored.size) bytes): \(unsignedReason)")
                signal = .videoUnsigned
            } else {
                info.merge(Wire.timeStamp(timeStamp)) { $1 }
                Log.info("video \(name) signed and stored for \(owner) (\(stored.size) bytes, \(video.duration) s\(Wire.timeStampNote(timeStamp)))")
                signal = .videoSigned
            }
            let arguments: [BusValue] = [.string(name), Wire.result(stored, info)]
            if recovered { service.announcements.announce(toOwner: uid, signal: signal, arguments: arguments) } else {
                session?.emit(signal, arguments)
            }
        case .failure(let error):
            // Never deleted: the file stays where it was recorded, and the next start publishes it.
            Log.error("video \(name): could not be stored (\(error)); kept for the next start to publish")
            session?.failed(LensError.from(error))
        }
    }
}

private enum RecordingStep: Sendable {
    case recording
    /// The finalized file (or why there is none), the thumbnail, the fault that ended it, if any,
    /// and the limit that did.
    case finished(Result<FinalizedMP4, Error>, [UInt8]?, LensError?, limit: RecordingLimits.Limit?)
}
