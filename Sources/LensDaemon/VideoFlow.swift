import C2PA
import FoundationEssentials
import Glibc
import LensCamera
import LensMedia
import LensStorage
import LensSystem
import LensBus
import LensContract
import LensCore
import Synchronization

/// One recording in progress, shared by the loop and the camera thread.
final class Recording: Sendable {
    let name: String
    let uid: UInt32
    /// Changed by the camera thread while recording (see recorded(withDigitalZoom:)); read on
    /// the loop once the recording has ended.
    private let changingFacts: Mutex<VideoSigning.Facts>
    var facts: VideoSigning.Facts { changingFacts.withLock { $0 } }
    let fix: LocationFix?
    let path: String
    let encoding: VideoEncoding
    /// The camera's digital zoom applies to its video frames (the synthetic camera): the zoom of
    /// each recorded frame is then looked at; other cameras record frames as the device delivers them.
    let tracksDigitalZoom: Bool
    /// Its length, its size, the owner's allowance and share of the free space, as at its start.
    let limits: RecordingLimits
    /// Set on the loop (StopVideoCapture, the claim ending); read by the camera thread between frames.
    let stopRequested = Atomic<Bool>(false)
    /// What VideoRecordingProgress shows, updated by the camera thread after every frame.
    let recordedMilliseconds = Atomic<Int>(0)
    let recordedBytes = Atomic<Int>(0)
    /// Made by the first frame's job, at the rate the open camera streams.
    private let recorder: Confined<VideoRecorder?>
    /// Capturing from StartVideoCapture on; handed to the recorder with the first frame.
    private let microphone: Microphone?

    init(name: String, uid: UInt32, facts: VideoSigning.Facts, fix: LocationFix?, path: String,
         encoding: VideoEncoding, tracksDigitalZoom: Bool, limits: RecordingLimits, microphone: Microphone?, rig: CameraRig) {
        self.name = name
        self.uid = uid
        changingFacts = Mutex(facts)
        recorder = rig.confined(nil)
        self.fix = fix
        self.path = path
        self.encoding = encoding
        self.tracksDigitalZoom = tracksDigitalZoom
        self.limits = limits
        self.microphone = microphone
    }

    /// Camera thread, after each recorded frame. A zoom that changes while recording has no one
    /// ratio: exif:DigitalZoomRatio says the largest any recorded frame was made with — how far
    /// the picture was at most enlarged — and the facts kept for recovery follow it.
    func recorded(withDigitalZoom ratio: Double?) {
        let facts: VideoSigning.Facts? = changingFacts.withLock { facts in
            guard let ratio, ratio > (facts.digitalZoomRatio ?? 1) else { return nil }
            facts.digitalZoomRatio = ratio
            return facts
        }
        guard let facts, let ratio else { return }
        do {
            try RecordingFacts(facts: facts, fix: fix).write(besides: path)
        } catch {
            Log.warning("video \(name): the zoom of \(ratio) is not in the facts kept for recovery: \(error)")
        }
    }

    /// Camera thread.
    func recorder(for camera: any Camera) -> VideoRecorder {
        let facts = facts
        return recorder.withState { recorder in
            if let recorder { return recorder }
            let made = VideoRecorder(path: path, encoding: encoding, frameRate: camera.videoFrameRate ?? 30, creationTime: facts.startTime,
                                     metadata: facts.metadata(location: fix, generator: Publishing.generator), microphone: microphone)
            recorder = made
            return made
        }
    }
}

/// The video flow: StartVideoCapture → frames pumped on the camera thread into a crash-safe
/// journal → StopVideoCapture (or a limit, a fault, the claim ending) → finalized →
/// VideoRecordingStopped (then VideoRecordingFailed when a fault ended it),
/// VideoThumbnailGenerated → VideoPublisher (signed in place, published: VideoSigned, or
/// VideoUnsigned with the playable file kept when signing fails). The machine turns the ended
/// recording into the finished video's ticket in one step.
final class VideoFlow: CaptureFlow {
    private let host: MachineHost
    private let sessions: Sessions
    private let cameras: Cameras
    private let sources: CaptureSources
    private let microphone: AudioFlow
    private let store: ResultStore
    private let configuration: Configuration
    private let clock: LensClock
    private let loop: any LoopExecutor
    private let publisher: VideoPublisher
    /// The recording the machine says is under way, as the camera thread records it.
    private var recording: Recording?

    init(host: MachineHost, sessions: Sessions, cameras: Cameras, sources: CaptureSources, microphone: AudioFlow,
         store: ResultStore, configuration: Configuration, clock: LensClock, loop: any LoopExecutor, publisher: VideoPublisher) {
        self.host = host
        self.sessions = sessions
        self.cameras = cameras
        self.sources = sources
        self.microphone = microphone
        self.store = store
        self.configuration = configuration
        self.clock = clock
        self.loop = loop
        self.publisher = publisher
    }

    func handle(_ effect: CaptureMachine.Effect) {
        switch effect {
        case .stopRecording(let name) where recording?.name == name:
            recording?.stopRequested.store(true, ordering: .relaxed)
        case .recordingChanged(let session, let recording):
            sessions[session]?.recordingChanged(recording)
        default: break
        }
    }

    /// VideoRecordingProgress: the session's recording, or an empty one.
    func progress(of session: Session) -> BusValue {
        Wire.progress(host.machine.isRecording(session.number) ? recording : nil)
    }

    /// Requires the claim, video mode and capture enabled (the session checks them).
    func start(for session: Session) throws {
        try host.require(by: session.number) { try $0.requireMayRecord(session.number) }
        guard let state = cameras.current else { throw LensError.cameraSessionFailed("no camera is available") }
        let name = UUID().uuidString.lowercased()
        let facts = VideoSigning.Facts(
            startTime: clock.wall(), make: state.description.driver, model: state.description.name,
            isSynthetic: state.isSynthetic, digitalZoomRatio: state.videoDigitalZoomRatio, busInfo: state.description.busInfo,
            usb: state.description.usb)
        let fix = sources.conditions.fixToRecord(accuracy: session.maximumLocationAccuracy)
        let microphone = try self.microphone.open(for: session, recording: name)
        let path: String
        do {
            path = try store.recordingPath(name: name, uid: session.uid)
            // What the manifest will say, kept beside the journal for recovery after a crash.
            try RecordingFacts(facts: facts, fix: fix).write(besides: path)
        } catch {
            microphone?.stop()
            throw LensError.internal("cannot prepare the recording: \(error)")
        }
        let recording = Recording(name: name, uid: session.uid, facts: facts, fix: fix, path: path,
                                  encoding: configuration.videoEncoding,
                                  tracksDigitalZoom: state.digitalZoom && state.zoomAppliesToVideo,
                                  limits: RecordingLimits(configuration, share: store.freeSpaceShare(of: session.uid)),
                                  microphone: microphone, rig: cameras.rig)
        do {
            try host.transition(by: session.number) { try $0.startRecording(name, by: session.number, withSound: microphone != nil) }
        } catch {
            microphone?.stop()
            store.discardRecording(name: name, uid: session.uid)
            RecordingFacts.remove(besides: path)
            throw error
        }
        self.recording = recording
        Log.info("video \(name): recording for \(Authorizer.userName(session.uid))"
                 + (microphone == nil ? ", without sound" : ", with sound from \(configuration.audioDevice)"))
        pump(recording, rig: cameras.rig, camera: cameras.currentIndex)
    }

    /// Idempotent for the recording session; the end is announced by signals.
    func stop(for session: Session) throws {
        try host.transition(by: session.number) { try $0.stopRecording(by: session.number) }
    }

    /// One frame per camera-thread job, so controls queued meanwhile run between frames.
    private func pump(_ recording: Recording, rig: CameraRig, camera: Int) {
        let limits = recording.limits
        let back = loop.confine(self)
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
                    Log.debug("video \(recording.name): time 0 is CLOCK_MONOTONIC \(String(cFormat: "%.6f", origin)) s")
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
        let session = host.machine.recording.flatMap { $0.name == recording.name ? sessions[$0.session] : nil }
        if self.recording === recording { self.recording = nil }
        // The recording ends, and the finished video's publishing begins, in one step.
        var kept: Bool { if case .success = video { true } else { false } }
        var ticket: CaptureMachine.Ticket?
        host.transition { machine in
            let ended = machine.recordingEnded(recording.name, kept: kept)
            ticket = ended.ticket
            return ended.effects
        }
        // As the SDK's "did stop recording": frames stopped, whatever stopped them; a fault follows.
        session?.emit(.videoRecordingStopped, [])
        // A fault, or nothing to keep (stopped before a frame was written): the owner hears why,
        // since no VideoSigned follows.
        let failure: LensError? = switch video {
        case .success: fault
        case .failure(let error): fault ?? LensError.from(error)
        }
        if let failure {
            Log.error("video \(recording.name): recording failed: \(failure.message)")
            session?.emit(.videoRecordingFailed, [.string(failure.name.busName), .string(failure.message)])
        }
        guard case .success(let finalized) = video, let ticket else {
            if case .failure(VideoRecordingError.noFrames) = video {
                store.discardRecording(name: recording.name, uid: recording.uid)
                RecordingFacts.remove(besides: recording.path)
            } else {
                // Frames may be in the journal: never deleted, the next start finalizes and publishes them.
                Log.warning("video \(recording.name): the journal stays at \(recording.path); lensd recovers it when it starts again")
            }
            return
        }
        session?.emit(.videoThumbnailGenerated, [.string(recording.name), .bytes(thumbnail ?? []), .double(finalized.duration)])
        publisher.publish(finalized, ticket: ticket, uid: recording.uid, facts: recording.facts, fix: recording.fix,
                          session: session, limit: limit)
    }
}

private enum RecordingStep: Sendable {
    case recording
    /// The finalized file (or why there is none), the thumbnail, the fault that ended it, if any,
    /// and the limit that did.
    case finished(Result<FinalizedMP4, Error>, [UInt8]?, LensError?, limit: RecordingLimits.Limit?)
}
