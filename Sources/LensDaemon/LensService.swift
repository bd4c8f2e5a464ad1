import C2PA
import Foundation
import LensBus
import LensCore
import LensCrypto
import LensFace

/// The state behind the bus objects: identity, storage, cameras, location, sessions, and the
/// camera claim. Confined to the event loop thread; workers post their results back to it.
final class LensService: @unchecked Sendable {
    let configuration: Configuration
    let loop: EventLoop
    let bus: BusConnection
    let authorizer: Authorizer
    /// Replaced only by reloadIdentity (InstallCertificate).
    private(set) var identity: DeviceIdentity
    let store: ResultStore
    /// Replaced when hot-plug finds new cameras, only while no session holds the camera.
    private(set) var rig: CameraRig
    let signingWorker = SerialWorker(name: "lensd-signing")
    /// Reading results back copies whole files: off the bus thread, apart from signing.
    let storageWorker = SerialWorker(name: "lensd-storage")
    private var location: GPSDLocationProvider?
    /// Set at start-up when upload-url is configured.
    var outbox: OutboxFlow?
    /// Under `timestamp = when-online`: results waiting for a TSA to time-stamp them later.
    var restamp: RestampFlow?
    /// Under `timestamp = required`: whether a TSA answers.
    private(set) var timeStampWatch: TimeStampWatch?
    /// Over the current identity's certificate, when its revocation is checked (ocsp).
    private(set) var revocationWatch: RevocationWatch?

    /// Per camera, the last state its thread reported.
    private(set) var cameraStates: [CameraState]
    private(set) var currentCamera = 0
    private(set) var sessions: [String: Session] = [:]
    /// The session holding the camera (StartCaptureSession), if any, and the sessions queued
    /// for it (WaitForCamera); see CameraClaim. Set only there.
    var claimHolder: Session? {
        didSet { if oldValue !== claimHolder { cameraHolderChanged() } }
    }
    var cameraWaiters: [CameraWaiter] = []
    /// When the holder last used the camera, and the timer that looks at it again while others wait.
    var claimActivity = ContinuousClock.now
    var idleClaimCheck: EventSource?
    /// The recording in progress (only the claim holder records); see VideoFlow.
    var recording: Recording?
    /// The claim holder's live preview, if it opened one; see PreviewFlow.
    var preview: LivePreview?
    var framePump = FramePumpState()
    /// The claim holder's face auto-capture, and the detector once read; see FaceFlow.
    var faceRun: FaceRun?
    var faceCascade: Result<FaceDetector, LensError>?
    /// Photos taken but not yet stored and announced, finished recordings not yet published,
    /// and who waits for them at shutdown (see Settling).
    var capturesInFlight = 0
    var onCapturesSettled: (() -> Void)?
    /// Signals for owners who had no session open when they happened: VideoSigned/VideoUnsigned
    /// of recovered recordings, ResultEvicted (see OwnerAnnouncements).
    var pendingAnnouncements: [UInt32: [(member: String, arguments: [BusValue])]] = [:]
    private var nextSessionNumber = 1
    private(set) var conditions: CaptureConditions
    /// The identity's state as last announced; it changes when the certificate expires.
    private(set) var enrollmentState: EnrollmentState
    /// Whether the journal has been told that this certificate is due for renewal.
    private var renewalAnnounced = false
    private var lastLocationBroadcast = ContinuousClock.now - .seconds(10)
    private var locationLog = LocationLog()
    /// The current camera's device node exists (always true for the synthetic camera).
    private(set) var cameraConnected = true
    /// The /sys device nodes hot-plug polling last looked at.
    private var knownNodes: [String] = []

    init(configuration: Configuration, loop: EventLoop, bus: BusConnection, identity: DeviceIdentity,
         store: ResultStore, cameras: [any Camera]) {
        self.configuration = configuration
        self.loop = loop
        self.bus = bus
        self.identity = identity
        self.store = store
        authorizer = Authorizer(group: configuration.allowedGroup)
        rig = CameraRig(cameras)
        cameraStates = rig.initialStates()
        currentCamera = CameraSelection.initial(cameraStates.map(\.description.position)) ?? 0
        enrollmentState = identity.state
        conditions = CaptureConditions(
            enrolled: identity.state == .enrolled, cameraAvailable: !cameras.isEmpty,
            locationPolicy: configuration.locationPolicy, locationFix: configuration.declaredLocation?.fix(now: Date()),
            storageLow: store.isLowOnSpace)
        if let timeStamping = configuration.timeStamping, timeStamping.policy == .required {
            let watch = TimeStampWatch(client: timeStamping.client, loop: loop) { [weak self] in self?.refreshConditions() }
            timeStampWatch = watch
            conditions.timestampProblem = watch.problem
        }
        revocationWatch = makeRevocationWatch()
        conditions.enrolled = conditions.enrolled && revocationWatch?.problem == nil
    }

    // MARK: Start and stop

    func start(scheduler: EventScheduler) {
        if configuration.locationPolicy != .never, configuration.declaredLocation == nil, let gpsd = configuration.gpsd {
            let provider = GPSDLocationProvider(host: gpsd.host, port: gpsd.port, scheduler: scheduler)
            provider.onChange = { [weak self] _ in self?.locationChanged() }
            provider.start()
            location = provider
        } else if configuration.locationPolicy == .required && configuration.declaredLocation == nil {
            Log.warning("location is required but gpsd is set to none: capture stays disabled (set --location optional, or a gpsd)")
        }
        conditions.locationSourceProblem = locationSourceProblem
        timeStampWatch?.start()
        revocationWatch?.start()
        announceEvictions()
        announceRenewal(enrollmentState, now: Date())
        recoverInterruptedRecordings()
        // Certificate expiry and free space change slowly: look every few seconds.
        loop.every(.seconds(5)) { [weak self] in self?.refreshConditions() }
        loop.every(min(.seconds(15), configuration.sessionIdleTimeout / 2)) { [weak self] in self?.closeStaleSessions() }
        // Hot-plug by polling /sys: netlink uevents do not reach containers.
        if configuration.camera != .synthetic {
            knownNodes = V4L2Discovery.nodePaths()
            loop.every(.seconds(1)) { [weak self] in self?.checkCameraConnected() }
            loop.every(.seconds(2)) { [weak self] in self?.discoverCameras() }
        }
    }

    /// Opening every node is the costly part of discovery, so it runs only while no camera is
    /// known (a node may just have become readable) or when the nodes in /sys changed. Cameras
    /// are never swapped under a claim: the look is put off until the claim ends.
    private func discoverCameras() {
        guard claimHolder == nil else { return }
        let nodes = V4L2Discovery.nodePaths()
        let nodesChanged = nodes != knownNodes
        guard rig.isEmpty || nodesChanged else { return }
        knownNodes = nodes
        let found = CameraCatalog.devices(configuration, logging: nodesChanged)
        let known = Set(rig.descriptions.map(\.path))
        // A vanished camera is left to the connection check, which disables and re-enables
        // capture; only cameras not seen before call for a new list.
        guard found.contains(where: { !known.contains($0.path) }) else { return }
        adopt(found)
    }

    /// A new rig for `devices`, keeping the current camera when it is still among them.
    private func adopt(_ devices: [CameraDescription]) {
        let currentPath = rig.descriptions.indices.contains(currentCamera) ? rig.descriptions[currentCamera].path : nil
        let old = rig
        rig = CameraRig(CameraCatalog.v4l2Cameras(devices, configuration))
        old.stop()
        cameraStates = rig.initialStates()
        currentCamera = devices.firstIndex { $0.path == currentPath } ?? CameraSelection.initial(devices.map(\.position)) ?? 0
        cameraConnected = true
        refreshConditions()
    }

    /// A vanished device ends the claim with CameraSessionFailed and disables capture (reason
    /// `camera`); when its node returns, capture is enabled again and a new claim reopens it.
    /// The state that comes back with the answer also carries the flash's availability.
    private func checkCameraConnected() {
        guard !rig.isEmpty else { return }
        let index = currentCamera, rig = rig
        rig.run(on: index, { $0.isConnected }) { [weak self] result, state in
            guard case .success(let connected) = result else { return }
            self?.loop.post { [weak self] in self?.cameraConnection(connected, state: state, index: index, rig: rig) }
        }
    }

    /// `rig` is the one asked: an answer from a rig replaced meanwhile is about other cameras.
    private func cameraConnection(_ connected: Bool, state: CameraState, index: Int, rig: CameraRig) {
        guard rig === self.rig, index == currentCamera else { return }
        checkFlashAvailability(state, index: index)
        guard connected != cameraConnected else { return }
        let path = rig.descriptions[index].path
        cameraConnected = connected
        if connected {
            Log.info("camera: \(path) is back")
        } else {
            Log.warning("capture disabled (camera): \(path) disconnected or failed")
            if let holder = claimHolder {
                holder.failed(.cameraSessionFailed("the camera \(path) was disconnected"))
                release(holder)
            }
        }
        refreshConditions()
    }

    /// A flash can stop being able to fire (a fault, overheating) or recover between checks, with
    /// no call to report it in: the claim holder learns it as DeviceChanged, as after ChangeCamera.
    private func checkFlashAvailability(_ state: CameraState, index: Int) {
        guard cameraStates.indices.contains(index) else { return }
        let old = cameraStates[index]
        record(state, forCamera: index)
        guard (old.hasFlash, old.isFlashAvailable) != (state.hasFlash, state.isFlashAvailable), let holder = claimHolder else { return }
        holder.emit("DeviceChanged", [Wire.device(state)])
        try? bus.emitPropertiesChanged(path: holder.path, interface: Session.interfaceName,
                                       changed: ["CurrentDevice": Wire.device(state)], destination: holder.owner)
    }

    func stop() {
        location?.stop()
        for session in Array(sessions.values) { close(session) }
        rig.stop()
        signingWorker.stop()
        storageWorker.stop()
        outbox?.stop()
        restamp?.stop()
        timeStampWatch?.stop()
        revocationWatch?.stop()
    }

    // MARK: Sessions

    func openSession(owner: String, uid: UInt32, options: [String: BusValue]) throws -> Session {
        let own = sessions.values.filter { $0.uid == uid }.count
        guard own < configuration.maxSessionsPerUser else {
            throw LensError.busy("\(Authorizer.userName(uid)) already has \(own) sessions (max-sessions-per-user)")
        }
        var accuracy = LocationAccuracy.defaultThreshold
        var persistent = false
        var audio = true
        for (key, value) in options {
            switch key {
            case "persistent":
                guard let flag = value.boolValue else { throw LensError.invalidArgument("persistent must be a boolean") }
                persistent = flag
            case "maximumLocationAccuracy":
                guard let meters = value.doubleValue, LocationAccuracy.isValidThreshold(meters) else {
                    throw LensError.invalidArgument("maximumLocationAccuracy must be a double in 3...1500 metres")
                }
                accuracy = meters
            case "audio":
                guard let flag = value.boolValue else { throw LensError.invalidArgument("audio must be a boolean") }
                audio = flag
            default:
                throw LensError.invalidArgument("unknown session option \(key); known: audio, maximumLocationAccuracy, persistent")
            }
        }
        let session = Session(service: self, number: nextSessionNumber, owner: owner, uid: uid, accuracy: accuracy,
                              persistent: persistent, audio: audio)
        nextSessionNumber += 1
        try session.register()
        sessions[session.path] = session
        Log.debug("session \(session.number) opened by \(Authorizer.userName(uid)) (\(owner))")
        // After the reply, so the client knows the path it comes from.
        loop.post { [weak session] in session?.announceInitialGate() }
        if pendingAnnouncements[uid] != nil {
            loop.post { [weak self, weak session] in if let session { self?.announcePending(to: session) } }
        }
        return session
    }

    func close(_ session: Session) {
        stopWaiting(session, because: "the session was closed")
        release(session)
        session.unregister()
        sessions[session.path] = nil
        Log.debug("session \(session.number) closed")
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
        let deadline = ContinuousClock.now - configuration.sessionIdleTimeout
        // A recording is activity: a busctl user may record for longer than the timeout between calls.
        for session in sessions.values where session.isPersistent && session.lastActivity < deadline
            && recording?.session !== session {
            Log.info("session \(session.number) idle for \(configuration.sessionIdleTimeout): closing it")
            close(session)
        }
    }

    // MARK: Capture conditions

    /// The `microphone` condition (AudioFlow); every session re-evaluates its gate.
    func setMicrophoneProblem(_ problem: String?) {
        conditions.microphoneProblem = problem
        for session in sessions.values { session.conditionsChanged() }
    }

    func disabledReasons(for session: Session) -> [DisabledReason] {
        conditions.disabledReasons(accuracy: session.maximumLocationAccuracy, usesMicrophone: session.audio)
    }

    func disabledReasonDetails(for session: Session) -> [DisabledReason: String] {
        conditions.explanations(accuracy: session.maximumLocationAccuracy, enrollmentProblem: signingProblem,
                                usesMicrophone: session.audio)
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
        configuration.declaredLocation?.fix(now: Date()) ?? location?.currentFix
    }

    /// What the Location property shows: the current fix, unless location is off entirely.
    var visibleFix: LocationFix? {
        configuration.locationPolicy == .never ? nil : currentFix
    }

    /// Loads the identity again after an enrollment changed it, and announces what changed.
    func reloadIdentity() {
        identity = DeviceIdentity.load(configuration.identityConfiguration)
        renewalAnnounced = false
        revocationWatch?.stop()
        revocationWatch = makeRevocationWatch()
        revocationWatch?.start()
        signerChanged()
        try? bus.emitPropertiesChanged(path: BusContract.managerPath, interface: BusContract.manager.name,
                                       changed: ["CertificateNotAfter": Wire.time(identity.certificateNotAfter),
                                                 "CertificateRenewAfter": Wire.time(certificateRenewAfter)],
                                       destination: nil)
        refreshConditions()
    }

    /// What signs captures now: the identity's signer with its certificate's latest good OCSP
    /// answer stapled; nil when there is none, and once the certificate is revoked (or, under
    /// `ocsp = required`, while no responder has confirmed it).
    var signer: (any ClaimSigner)? {
        guard let base = identity.signer, revocationWatch?.problem == nil else { return nil }
        guard let staple = revocationWatch?.staple(at: Date()) else { return base }
        return StapledSigner(base, ocspResponses: [staple])
    }

    /// Why `signer` is nil.
    var signingProblem: String? {
        revocationWatch?.problem ?? identity.problem
    }

    /// The OCSP watch over the current certificate; nil when its revocation is not checked.
    private func makeRevocationWatch() -> RevocationWatch? {
        guard let check = configuration.revocationCheck(for: identity.certificate) else { return nil }
        return RevocationWatch(identity: identity, client: check.client, policy: check.policy, interval: configuration.ocspInterval,
                               loop: loop) { [weak self] _ in self?.revocationChanged() }
    }

    /// A revoked certificate signs nothing more: every session is told, a recording under way is
    /// stopped and kept unsigned.
    private func revocationChanged() {
        guard let watch = revocationWatch else { return }
        switch watch.finding {
        case .good(let status):
            Log.info("the device certificate is not revoked (OCSP answer of \(status.producedAt.ISO8601Format()))")
        case .revoked:
            let problem = watch.problem ?? "the device certificate was revoked"
            Log.error("capture disabled (enrollment): \(problem)")
            for session in sessions.values { session.failed(.enrollment(problem)) }
            recording?.stopRequested.store(true, ordering: .relaxed)
        case .unavailable(let why):
            Log.warning("OCSP: \(why); " + (watch.policy == .required ? "capture disabled (ocsp = required)" : "capture goes on"))
        case .unchecked: break
        }
        signerChanged()
        refreshConditions()
    }

    /// The re-stamp queue signs with what captures sign with.
    private func signerChanged() {
        guard let client = configuration.timeStamping?.client else { return }
        restamp?.signerChanged(signer, trustAnchor: identity.trustAnchor, client: client)
    }

    /// From when the device certificate is due for renewal (renew-before ahead of its expiry).
    var certificateRenewAfter: Date? {
        identity.certificateNotAfter.map { $0 - TimeInterval(configuration.renewBefore.components.seconds) }
    }

    /// Logs, once per certificate, that an enrolled certificate is due for renewal.
    private func announceRenewal(_ enrollment: EnrollmentState, now: Date) {
        guard enrollment == .enrolled, !renewalAnnounced, let renewAfter = certificateRenewAfter, now >= renewAfter,
              let notAfter = identity.certificateNotAfter else { return }
        renewalAnnounced = true
        let days = Int((notAfter.timeIntervalSince(now) / 86_400).rounded())
        let how = configuration.enrollment == .organization
            ? "lensctl enroll request, then lensctl enroll install the chain your CA issues"
            : "with lensd stopped, remove \(configuration.stateDirectory)/identity (verifiers then need the new trust anchor)"
        Log.warning("the device certificate expires \(notAfter.ISO8601Format()) (in \(days) days): renew it before then: \(how)")
    }

    func refreshConditions() {
        let now = Date()
        var enrollment = identity.state(at: now)
        if enrollment == .enrolled, revocationWatch?.isRevoked == true { enrollment = .revoked }
        announceRenewal(enrollment, now: now)
        if enrollment != enrollmentState {
            enrollmentState = enrollment
            if enrollment == .enrolled {
                Log.info("capture enabled (enrollment): the device certificate is enrolled")
            } else {
                Log.warning("capture disabled (enrollment): the device certificate is \(enrollment.rawValue)")
            }
            // Manager properties are nothing personal: their changes are broadcast.
            try? bus.emitPropertiesChanged(path: BusContract.managerPath, interface: BusContract.manager.name,
                                           changed: ["EnrollmentState": .string(enrollment.rawValue)], destination: nil)
        }
        conditions.enrolled = enrollment == .enrolled && revocationWatch?.problem == nil
        let cameraAvailable = !rig.isEmpty && cameraConnected
        if cameraAvailable != conditions.cameraAvailable {
            try? bus.emitPropertiesChanged(path: BusContract.managerPath, interface: BusContract.manager.name,
                                           changed: ["CameraPresent": .bool(cameraAvailable)], destination: nil)
        }
        conditions.cameraAvailable = cameraAvailable
        conditions.storageLow = store.isLowOnSpace
        if conditions.storageLow, let recording, !recording.stopRequested.load(ordering: .relaxed) {
            // Stopped while there is room to finalize and sign it, rather than failed by ENOSPC.
            Log.warning("video \(recording.name): stopping, the disk is almost full (min-free-bytes)")
            recording.stopRequested.store(true, ordering: .relaxed)
        }
        conditions.locationFix = currentFix
        conditions.locationSourceProblem = locationSourceProblem
        conditions.timestampProblem = timeStampWatch?.problem
        refreshMicrophone()
        for session in sessions.values { session.conditionsChanged() }
    }

    private func locationChanged() {
        if let status = location?.status { locationLog.note(status) }
        refreshConditions()
        // LocationChanged at most once a second.
        let now = ContinuousClock.now
        guard now - lastLocationBroadcast >= .seconds(1) else { return }
        lastLocationBroadcast = now
        for session in sessions.values { session.locationChanged(conditions.locationFix) }
    }

    /// Records what a camera thread reported about camera `index` — unless the list was rebuilt
    /// since and that index now holds another camera (or none).
    func record(_ state: CameraState, forCamera index: Int) {
        guard cameraStates.indices.contains(index), cameraStates[index].description.path == state.description.path else { return }
        cameraStates[index] = state
    }

    /// Makes camera `index` the current one (ChangeCamera).
    func select(camera index: Int) {
        currentCamera = index
    }
}

/// Carries a loop-confined value through a worker thread and back; only the loop thread touches it.
struct LoopBound<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
