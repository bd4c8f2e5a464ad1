import C2PA
import Foundation
import LensBus
import LensContract
import LensCore
import LensCrypto

/// The hub behind the bus objects, confined to the event loop thread: it owns the capture state
/// machine (CaptureMachine) and hands every transition's effects to the flows, which do the work;
/// it keeps the sessions, and computes the capture conditions from their sources (the signing
/// identity, cameras, location, storage, TSA, microphone).
final class LensService {
    let configuration: Configuration
    let loop: EventLoop
    let bus: BusConnection
    let clock: LensClock
    let authorizer: Authorizer
    let store: ResultStore
    let signingWorker = SerialWorker(name: "lensd-signing")
    private(set) var machine = CaptureMachine()
    private(set) var sessions: [Int: Session] = [:]

    // The flows, each a small type of its own; see CaptureMachine.
    private(set) var signing: SigningIdentity!
    private(set) var cameras: Cameras!
    private(set) lazy var claims = CameraClaim(service: self)
    private(set) lazy var controls = CameraControls(service: self)
    private(set) lazy var photos = PhotoFlow(service: self)
    private(set) lazy var videos = VideoFlow(service: self)
    private(set) lazy var previews = PreviewFlow(service: self)
    private(set) lazy var faces = FaceFlow(service: self)
    private(set) lazy var pump = FramePump(service: self)
    private(set) lazy var settling = Settling(service: self)
    private(set) lazy var microphone = AudioFlow(service: self)
    private(set) lazy var announcements = OwnerAnnouncements(service: self)
    private(set) lazy var storeCalls = StoreCalls(store: store, worker: SerialWorker(name: "lensd-storage"), loop: loop)
    /// In the order each effect reaches them: what belongs to an ended claim ends before the camera closes.
    private lazy var flows: [CaptureFlow] = [claims, controls, previews, faces, videos, pump, cameras, settling]
    /// Set at start-up when upload-url is configured.
    var outbox: OutboxFlow?
    /// Under `timestamp = when-online`: results waiting for a TSA to time-stamp them later.
    var restamp: RestampFlow?
    /// Under `timestamp = required`: whether a TSA answers.
    private var timeStampWatch: TimeStampWatch?
    private var location: GPSDLocationProvider?
    private var locationLog = LocationLog()
    private var lastLocationBroadcast: ContinuousClock.Instant
    private var nextSessionNumber = 1
    /// What was last announced, to announce changes only.
    private var announcedCameraPresent: Bool
    private var announcedStorageLow: Bool

    init(configuration: Configuration, loop: EventLoop, bus: BusConnection, identity: DeviceIdentity,
         store: ResultStore, cameras: [any Camera], clock: LensClock = .system) {
        self.configuration = configuration
        self.loop = loop
        self.bus = bus
        self.clock = clock
        self.store = store
        authorizer = Authorizer(group: configuration.allowedGroup)
        lastLocationBroadcast = clock.monotonic() - .seconds(10)
        announcedCameraPresent = !cameras.isEmpty
        announcedStorageLow = store.isLowOnSpace
        self.cameras = Cameras(cameras, service: self)
        signing = SigningIdentity(identity, service: self)
        if let timeStamping = configuration.timeStamping, timeStamping.policy == .required {
            timeStampWatch = TimeStampWatch(client: timeStamping.client, loop: loop) { [weak self] in self?.refreshConditions() }
        }
    }

    /// Asks the machine for a transition and hands what it emits to every flow, effect by effect.
    /// A refusal becomes the D-Bus error `asker` is answered with.
    func transition(by asker: Session? = nil, _ body: (inout CaptureMachine) throws -> [CaptureMachine.Effect]) throws {
        let effects: [CaptureMachine.Effect]
        do { effects = try body(&machine) } catch let refusal as CaptureMachine.Refusal { throw explain(refusal, to: asker) }
        handOut(effects)
    }

    /// For transitions that cannot be refused.
    func transition(_ body: (inout CaptureMachine) -> [CaptureMachine.Effect]) {
        handOut(body(&machine))
    }

    private func handOut(_ effects: [CaptureMachine.Effect]) {
        for effect in effects {
            for flow in flows { flow.handle(effect) }
        }
    }

    private func explain(_ refusal: CaptureMachine.Refusal, to asker: Session?) -> LensError {
        switch refusal {
        case .heldBy(let holder): .busy(sessions[holder].map(claims.inUse) ?? "the camera is in use")
        case .noCamera: .cameraSessionFailed("no camera is available")
        case .recordingBy(let session): .busy(session == asker?.number ? "this session is already recording" : "another session is recording")
        case .notClaimed: .notStarted("call StartCaptureSession first")
        case .notRecording: .notStarted("this session is not recording (call StartVideoCapture first)")
        }
    }

    /// The session holding the camera claim.
    var holder: Session? { machine.holder.flatMap { sessions[$0] } }

    // MARK: Start and stop

    func start(scheduler: EventScheduler) {
        if configuration.locationPolicy != .never, configuration.declaredLocation == nil, let gpsd = configuration.gpsd {
            let provider = GPSDLocationProvider(host: gpsd.host, port: gpsd.port, scheduler: scheduler, clock: clock.wall)
            provider.onChange = { [weak self] _ in self?.locationChanged() }
            provider.start()
            location = provider
        } else if configuration.locationPolicy == .required && configuration.declaredLocation == nil {
            Log.warning("location is required but gpsd is set to none: capture stays disabled (set --location optional, or a gpsd)")
        }
        timeStampWatch?.start()
        signing.start()
        microphone.probe()
        announcements.announceEvictions()
        VideoRecovery(service: self).recoverInterruptedRecordings()
        // Certificate expiry and free space change slowly: look every few seconds.
        loop.every(.seconds(5)) { [weak self] in self?.refreshConditions() }
        loop.every(min(.seconds(15), configuration.sessionIdleTimeout / 2)) { [weak self] in self?.closeStaleSessions() }
        cameras.start()
    }

    /// Captures under way are finished first (Settling); then `done`.
    func settle(_ done: @escaping () -> Void) {
        settling.settle(done)
    }

    func stop() {
        location?.stop()
        for session in Array(sessions.values) { close(session) }
        cameras.stop()
        signingWorker.stop()
        storeCalls.worker.stop()
        outbox?.stop()
        restamp?.stop()
        timeStampWatch?.stop()
        signing.stop()
    }

    // MARK: Sessions

    func openSession(owner: String, uid: UInt32, options: [String: BusValue]) throws -> Session {
        let own = sessions.values.filter { $0.uid == uid }.count
        guard own < configuration.maxSessionsPerUser else {
            throw LensError.busy("\(Authorizer.userName(uid)) already has \(own) sessions (max-sessions-per-user)")
        }
        let options = try SessionOptions(options)
        let session = Session(service: self, number: nextSessionNumber, owner: owner, uid: uid, accuracy: options.accuracy,
                              persistent: options.persistent, audio: options.audio)
        nextSessionNumber += 1
        try session.register()
        sessions[session.number] = session
        Log.debug("session \(session.number) opened by \(Authorizer.userName(uid)) (\(owner))")
        // After the reply, so the client knows the path it comes from.
        loop.confine(session).post { $0.announceInitialGate() }
        announcements.sessionOpened(session)
        return session
    }

    func close(_ session: Session) {
        claims.stopWaiting(session, because: "the session was closed")
        release(session)
        session.unregister()
        sessions[session.number] = nil
        Log.debug("session \(session.number) closed")
    }

    /// Ends the session's claim, if it holds it; idempotent.
    func release(_ session: Session) {
        transition { $0.release(session.number) }
    }

    /// Throws NotAuthorized, after closing every session of `uid`, when `uid` may no longer use
    /// lensd (removed from the group since it opened them).
    func requireMembership(_ uid: UInt32) throws {
        guard !authorizer.isAllowed(uid: uid) else { return }
        closeSessions(ofRevoked: uid)
        throw LensError.notAuthorized("\(Authorizer.userName(uid)) is no longer in group \(configuration.allowedGroup): "
            + "their lensd sessions are closed")
    }

    private func closeSessions(ofRevoked uid: UInt32) {
        for session in sessions.values where session.uid == uid {
            Log.warning("session \(session.number): \(Authorizer.userName(uid)) is no longer in group \(configuration.allowedGroup): closing it")
            close(session)
        }
    }

    /// Persistent sessions have no connection to die with, so they end when left idle.
    /// Connection-owned ones end with their connection (sd_bus_track), however long it idles.
    private func closeStaleSessions() {
        // Users removed from the group who make no calls lose their sessions (and claim) here.
        for uid in Set(sessions.values.map(\.uid)) where !authorizer.isAllowed(uid: uid) { closeSessions(ofRevoked: uid) }
        let deadline = clock.monotonic() - configuration.sessionIdleTimeout
        // A recording is activity: a busctl user may record for longer than the timeout between calls.
        for session in sessions.values where session.isPersistent && session.lastActivity < deadline
            && machine.recording?.session != session.number {
            Log.info("session \(session.number) idle for \(configuration.sessionIdleTimeout): closing it")
            close(session)
        }
    }

    // MARK: Capture conditions, computed from their sources

    var conditions: CaptureConditions {
        var conditions = CaptureConditions(
            enrolled: signing.mayCapture, cameraAvailable: cameras.isAvailable,
            locationPolicy: configuration.locationPolicy, locationFix: currentFix, storageLow: store.isLowOnSpace)
        conditions.locationSourceProblem = locationSourceProblem
        conditions.timestampProblem = timeStampWatch?.problem
        conditions.microphoneProblem = microphone.problem
        return conditions
    }

    /// Why there is no location source to wait for a fix from, if so.
    private var locationSourceProblem: String? {
        if case .connecting(let why)? = location?.status { return why }
        if location == nil, configuration.declaredLocation == nil, configuration.locationPolicy != .never {
            return "no location source (gpsd is set to none)"
        }
        return nil
    }

    var currentFix: LocationFix? {
        configuration.declaredLocation?.fix(now: clock.wall()) ?? location?.currentFix
    }

    /// What the Location property shows: the current fix, unless location is off entirely.
    var visibleFix: LocationFix? {
        configuration.locationPolicy == .never ? nil : currentFix
    }

    /// Every session re-evaluates its gate (and signals a change).
    func conditionsChanged() {
        for session in sessions.values { session.conditionsChanged() }
    }

    /// A result was stored: free space may have crossed min-free-bytes.
    func storageMayHaveChanged() {
        if store.isLowOnSpace != announcedStorageLow { refreshConditions() }
    }

    /// The periodic look at the slow sources (certificate expiry, free space, the microphone),
    /// announcing what changed; also after any source reported a change.
    func refreshConditions() {
        signing.refresh()
        if cameras.isAvailable != announcedCameraPresent {
            announcedCameraPresent = cameras.isAvailable
            managerPropertiesChanged(["CameraPresent": .bool(announcedCameraPresent)])
        }
        announcedStorageLow = store.isLowOnSpace
        if announcedStorageLow, let recording = machine.recording, !recording.stopRequested {
            // Stopped while there is room to finalize and sign it, rather than failed by ENOSPC.
            Log.warning("video \(recording.name): stopping, the disk is almost full (min-free-bytes)")
            transition { $0.stopRecording() }
        }
        microphone.probe()
        conditionsChanged()
    }

    private func locationChanged() {
        if let status = location?.status { locationLog.note(status) }
        refreshConditions()
        // LocationChanged at most once a second.
        let now = clock.monotonic()
        guard now - lastLocationBroadcast >= .seconds(1) else { return }
        lastLocationBroadcast = now
        let fix = currentFix
        for session in sessions.values { session.locationChanged(fix) }
    }

    func managerPropertiesChanged(_ changed: [String: BusValue]) {
        try? bus.emitPropertiesChanged(path: Lens1.managerPath, interface: Lens1.managerInterface,
                                       changed: changed, destination: nil)
    }

    // MARK: Identity and what signs

    /// What a capture handed to the signing thread now signs with; nil when nothing may sign.
    /// While the re-stamp queue waits for a TSA that did not answer, a capture does not wait too
    /// (up to tsa-timeout per TSA): it is signed at once and queued with the others.
    var publishing: Publishing? {
        guard let signer = signing.signer else { return nil }
        let waiting = restamp?.queue.isWaitingForTSA == true
        return Publishing(signer: signer, timeStamping: waiting ? nil : configuration.timeStamping,
                          skipped: waiting ? .unstamped(reason: "the last request went unanswered; queued until a TSA answers") : nil,
                          store: store, outbox: outbox?.outbox, restampQueue: restamp?.queue)
    }

    /// A capture's time-stamp went through or failed: the TSA watch need not ask.
    func timeStampFound(_ outcome: TimeStamping.Outcome?) {
        if let outcome { timeStampWatch?.captureFound(outcome) }
    }

}
