import C2PA
import FoundationEssentials
import Glibc
import LensBus
import LensCamera
import LensContract
import LensCore
import LensSystem

/// What every session is made with: the bus it is exported on and speaks through, the clock of
/// its idle time, the sources of its capture gate, and the flows its table routes calls to.
struct SessionContext {
    let bus: any BusPort
    let loop: any LoopExecutor
    let clock: LensClock
    let host: MachineHost
    let sources: CaptureSources
    let sessions: Sessions
    let cameras: Cameras
    let claims: CameraClaim
    let controls: CameraControls
    let photos: PhotoFlow
    let videos: VideoFlow
    let previews: PreviewFlow
    let faces: FaceFlow
    let storeCalls: StoreCalls
}

/// org.lensd.Lens1.Session at /org/lensd/Lens1/session/N: a thin bus adapter. Its table binds
/// each member to the flow that does the work and to the rule of who may call it. Only its owner
/// — the connection that opened it — may call it or read its properties; it dies with the owner's
/// connection. A persistent session (OpenSession option "persistent": true, for one-shot clients
/// such as busctl) belongs to the opener's uid instead: any connection of that user may use it,
/// signals follow the connection that called it last, and it ends with Close or the idle timeout.
final class Session: TableObject {
    let number: Int
    let path: String
    private(set) var owner: String
    let uid: UInt32
    let isPersistent: Bool
    private(set) var maximumLocationAccuracy: Double
    /// OpenSession's `audio`: false turns sound off for this session's videos.
    let audio: Bool
    private(set) var lastActivity: ContinuousClock.Instant
    private(set) var cameraMode = CameraMode.photo
    private var reportedReasons: [DisabledReason]
    private var reportedDetails: [DisabledReason: String] = [:]
    private let context: SessionContext
    private var registration: (any Cancellable)?
    private var tracking: (any Cancellable)?

    enum CameraMode: String { case photo, video }

    init(_ context: SessionContext, number: Int, owner: String, uid: UInt32, options: SessionOptions) {
        self.context = context
        isPersistent = options.persistent
        self.number = number
        self.owner = owner
        self.uid = uid
        path = "\(Lens1.sessionsPath)/\(number)"
        maximumLocationAccuracy = options.accuracy
        audio = options.audio
        lastActivity = context.clock.monotonic()
        reportedReasons = context.sources.conditions.disabledReasons(accuracy: options.accuracy, usesMicrophone: options.audio)
    }

    func register() throws {
        registration = try context.bus.export(self, at: path)
        guard !isPersistent else { return }
        tracking = try context.bus.track(peer: owner) { [weak self] in
            guard let self else { return }
            Log.debug("session \(self.number): its owner \(self.owner) left the bus")
            self.context.sessions.close(self)
        }
    }

    func unregister() {
        tracking?.cancel()
        registration?.cancel()
    }

    // MARK: The table

    static let table = BusTable<Session>(
        Lens1.sessionInterface,
        methods: [
            .init("StartCaptureSession", access: .owner) { s in { s.deferred($0) { s.context.claims.start(for: s, reply: $0) } } },
            .init("WaitForCamera", in: ["timeout": "d"], access: .owner, Session.waitForCamera),
            .init("StopCaptureSession", access: .owner, Session.stopCaptureSession),
            .init("Close", access: .owner) { s in { _ in s.context.sessions.close(s); return .reply([]) } },
            .init("BeginCapture", out: ["name": "s"], access: .claimHolder, Session.beginCapture),
            .init("FetchResult", in: ["name": "s"], out: ["fd": "h", "info": "a{sv}"], access: .owner, Session.fetchResult),
            .init("ReadResult", in: ["name": "s"], out: ["bytes": "ay"], access: .owner, Session.readResult),
            .init("SetFlashMode", in: ["mode": "s"], access: .claimHolder, reportsFailure: true,
                  { s in { try s.context.controls.setFlashMode($0, for: s) } }),
            .init("ToggleFlash", out: ["mode": "s"], access: .claimHolder, reportsFailure: true,
                  { s in { try s.context.controls.toggleFlash($0, for: s) } }),
            .init("ChangeCamera", out: ["device": "a{sv}"], access: .claimHolder, reportsFailure: true,
                  { s in { try s.context.controls.changeCamera($0, to: nil, for: s) } }),
            .init("SelectCamera", in: ["path": "s"], out: ["device": "a{sv}"], access: .claimHolder, reportsFailure: true,
                  { s in { try s.context.controls.changeCamera($0, to: $0.arguments.first?.stringValue ?? "", for: s) } }),
            .init("SetZoomFactor", in: ["factor": "d"], out: ["factor": "d"], access: .claimHolder, reportsFailure: true,
                  { s in { try s.context.controls.zoom($0, relative: false, for: s) } }),
            .init("Zoom", in: ["scale": "d"], out: ["factor": "d"], access: .claimHolder, reportsFailure: true,
                  { s in { try s.context.controls.zoom($0, relative: true, for: s) } }),
            .init("FocusAt", in: ["x": "d", "y": "d"], out: ["x": "d", "y": "d"], access: .claimHolder, reportsFailure: true,
                  { s in { try s.context.controls.focus($0, for: s) } }),
            .init("StartVideoCapture", access: .claimHolder, Session.startVideoCapture),
            .init("StopVideoCapture", access: .owner) { s in { _ in try s.context.videos.stop(for: s); return .reply([]) } },
            .init("SetMaximumLocationAccuracy", in: ["meters": "d"], out: ["accepted": "b"], access: .owner,
                  Session.setMaximumLocationAccuracy),
            .init("OpenPreview", in: ["options": "a{sv}"], out: ["fd": "h", "format": "a{sv}"], access: .claimHolder,
                  { s in { caller in
                      let options = try PreviewOptions(caller.arguments.first?.vardictValue ?? [:])
                      return s.deferred(caller) { s.context.previews.open(for: s, options: options, reply: $0) }
                  } }),
            .init("ClosePreview", access: .owner) { s in { _ in s.context.previews.close(of: s); return .reply([]) } },
            .init("StartFaceAutoCapture", in: ["options": "a{sv}"], access: .claimHolder, Session.startFaceAutoCapture),
            .init("RequestFaceCapture", access: .claimHolder) { s in { _ in try s.context.faces.requestCapture(for: s); return .reply([]) } },
            .init("RestartFaceAutoCapture", access: .claimHolder) { s in { _ in try s.context.faces.restart(for: s); return .reply([]) } },
            .init("StopFaceAutoCapture", access: .owner) { s in { _ in s.context.faces.stop(of: s); return .reply([]) } },
        ],
        properties: [
            .init("CameraMode", "s", access: .owner, read: { .string($0.cameraMode.rawValue) }, write: { try $0.setCameraMode($1) }),
            .init("IsRecordingVideo", "b", access: .owner) { .bool($0.isRecording) },
            // Changes with every frame: polled, never signalled.
            .init("VideoRecordingProgress", "a{sv}", emitsChange: .no, access: .owner) { $0.context.videos.progress(of: $0) },
            .init("CurrentDevice", "a{sv}", access: .owner) { $0.context.cameras.current.map(Wire.device) ?? .vardict([:]) },
            .init("CaptureEnabled", "b", access: .owner) { .bool($0.disabledReasons.isEmpty) },
            .init("DisabledReasons", "as", access: .owner) { Wire.reasons($0.disabledReasons) },
            .init("DisabledReasonDetails", "a{ss}", access: .owner) { Wire.reasonDetails($0.disabledReasonDetails) },
            .init("MaximumLocationAccuracy", "d", access: .owner) { .double($0.maximumLocationAccuracy) },
            .init("Location", "a{sv}", access: .owner) { Wire.location($0.context.sources.visibleFix) },
            .init("PreviewActive", "b", access: .owner) { .bool($0.context.previews.isActive(for: $0)) },
            // Changes with every frame: polled, never signalled.
            .init("PreviewStats", "a{sv}", emitsChange: .no, access: .owner) { $0.context.previews.stats(of: $0) },
            .init("FaceAutoCaptureState", "s", access: .owner) { .string($0.context.faces.state(of: $0)) },
        ],
        signals: Lens1.Signal.allCases.map { InterfaceDescription.Signal($0.name, $0.arguments) })

    /// The owner, and still allowed to use lensd: membership is re-checked on every call, and a
    /// user no longer allowed loses all their sessions and the camera claim at once.
    func admit(_ sender: String, _ access: Access, to entry: TableEntry) throws -> UInt32 {
        guard isOwner(sender) else {
            // Another member's session answers as a missing one (sd-bus's own words), so that no
            // one learns which sessions exist; a caller who may not use lensd is told so.
            guard context.sessions.mayUseLensd(sender) else {
                throw LensError.notAuthorized("session \(number) belongs to another client")
            }
            throw BusError("org.freedesktop.DBus.Error.UnknownObject", "Unknown object '\(path)'.")
        }
        // A property is answered on the object: its sessions close after the answer, else at once.
        if case .property = entry { try context.sessions.requireMembership(uid, closing: .afterAnswer) } else {
            try context.sessions.requireMembership(uid, closing: .now)
        }
        follow(sender)
        return uid
    }

    /// Also counts as use of the camera, for the claim's idle timeout.
    func requireClaim() throws {
        try context.host.require(by: number) { try $0.requireClaim(by: number) }
        context.claims.used()
    }

    func callFailed(_ failure: LensError, reportsFailure: Bool) {
        // After the reply (the loop sends it when call returns), so a client sees the reply first.
        if reportsFailure || failure.name == .microphonePermissionDenied {
            context.loop.confine(self).post { $0.failed(failure) }
        }
    }

    // MARK: Handlers that are the session's own

    /// A call answered later, through `reply`.
    private func deferred(_ caller: Caller, _ body: (DeferredReply) -> Void) -> MethodResult {
        let reply = DeferredReply(for: caller.call)
        body(reply)
        return .deferred(reply)
    }

    /// StartCaptureSession, queued: answered when this session holds the camera, first come first
    /// served, or with Busy once `timeout` seconds have passed.
    private func waitForCamera(_ caller: Caller) throws -> MethodResult {
        guard let seconds = caller.arguments.first?.doubleValue, seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw LensError.invalidArgument("the timeout must be a number of seconds in (0, 86400]")
        }
        return try context.claims.wait(for: self, caller: caller.call.sender, timeout: .milliseconds(Int(seconds * 1000)),
                                       reply: DeferredReply(for: caller.call))
    }

    /// Idempotent: stopping a session that holds nothing is not an error. It also ends a wait.
    private func stopCaptureSession(_ caller: Caller) -> MethodResult {
        context.claims.stopWaiting(self, because: "StopCaptureSession was called")
        context.host.transition { $0.release(number) }
        return .reply([])
    }

    private func beginCapture(_ caller: Caller) throws -> MethodResult {
        guard cameraMode == .photo else {
            throw LensError.unsupported("BeginCapture takes photos; the camera mode is video (use StartVideoCapture)")
        }
        try requireCaptureEnabled()
        return .reply([.string(context.photos.capture(for: self))])
    }

    private func startVideoCapture(_ caller: Caller) throws -> MethodResult {
        guard cameraMode == .video else {
            throw LensError.unsupported("StartVideoCapture records video; set CameraMode to video first")
        }
        try requireCaptureEnabled()
        try context.videos.start(for: self)
        emit(.videoRecordingStarted, [])
        return .reply([])
    }

    /// Answered once the camera faces the asked way and the watch is on the frame pipeline.
    private func startFaceAutoCapture(_ caller: Caller) throws -> MethodResult {
        guard cameraMode == .photo else {
            throw LensError.unsupported("face auto-capture takes a photo; the camera mode is video")
        }
        try requireCaptureEnabled()
        let options = try FaceOptions(caller.arguments.first?.vardictValue ?? [:])
        let controller = try context.faces.controller(for: self, options: options)
        return deferred(caller) { context.faces.start(for: self, controller: controller, facing: options.facing, reply: $0) }
    }

    private func fetchResult(_ caller: Caller) throws -> MethodResult {
        let name = try StoreCalls.resultName(caller.call), uid = uid
        return context.storeCalls.answer(caller.call) { store in
            let stored = try store.result(name: name, uid: uid)
            return ([Wire.result(stored)], try store.fetchDescriptor(name: name, uid: uid).take())
        }
    }

    private func readResult(_ caller: Caller) throws -> MethodResult {
        let name = try StoreCalls.resultName(caller.call), uid = uid
        return context.storeCalls.answer(caller.call) { store in
            let stored = try store.result(name: name, uid: uid)
            guard stored.format?.isVideo == false else {
                throw LensError.unsupported("ReadResult returns photos only; use FetchResult for \(stored.mime)")
            }
            return ([.bytes(try store.read(name: name, uid: uid))], nil)
        }
    }

    /// Out of range (or NaN/inf): false and nothing changes, as the SDK does.
    private func setMaximumLocationAccuracy(_ caller: Caller) -> MethodResult {
        guard let meters = caller.arguments.first?.doubleValue, LocationAccuracy.isValidThreshold(meters) else {
            return .reply([.bool(false)])
        }
        maximumLocationAccuracy = meters
        propertiesChanged(["MaximumLocationAccuracy": .double(meters)])
        conditionsChanged()
        return .reply([.bool(true)])
    }

    private func setCameraMode(_ value: BusValue) throws {
        guard let text = value.stringValue, let mode = CameraMode(rawValue: text) else {
            throw LensError.invalidArgument("camera mode must be photo or video")
        }
        try context.host.require(by: number) { try $0.requireNotRecording(number, toChange: .mode) }
        guard mode != cameraMode else { return }
        cameraMode = mode
        propertiesChanged(["CameraMode": .string(mode.rawValue)])
    }

    // MARK: Events to the owner

    func emit(_ signal: Lens1.Signal, _ arguments: [BusValue]) {
        assert(arguments.map(\.signature).joined() == signal.signature, "\(signal.name) sent as \(arguments.map(\.signature))")
        do {
            try context.bus.emitSignal(path: path, interface: Lens1.sessionInterface, member: signal.name,
                                       arguments: arguments, destination: owner)
        } catch {
            Log.debug("session \(number): \(signal.name) not delivered: \(error)")
        }
    }

    func failed(_ error: LensError) {
        emit(.failed, [.string(error.name.busName), .string(error.message)])
    }

    func propertiesChanged(_ changed: [String: BusValue]) {
        try? context.bus.emitPropertiesChanged(path: path, interface: Lens1.sessionInterface, changed: changed, destination: owner)
    }

    /// DeviceChanged and CurrentDevice, after a camera switch or a change the device reported.
    func deviceChanged(_ state: CameraState) {
        emit(.deviceChanged, [Wire.device(state)])
        propertiesChanged(["CurrentDevice": Wire.device(state)])
    }

    /// A signal-driven client learns the starting gate as it learns every change: CaptureDisabled
    /// when the session opens disabled (an enabled start needs no signal, as in the SDK).
    func announceInitialGate() {
        if !reportedReasons.isEmpty { emit(.captureDisabled, [Wire.reasons(reportedReasons)]) }
    }

    /// Re-evaluates the gate for this session's threshold; signals only on a change.
    func conditionsChanged() {
        // One look at the sources (free space, the fix, the identity) for both.
        let conditions = context.sources.conditions
        let reasons = disabledReasons(under: conditions)
        let details = disabledReasonDetails(under: conditions)
        if details != reportedDetails {
            reportedDetails = details
            propertiesChanged(["DisabledReasonDetails": Wire.reasonDetails(details)])
        }
        guard reasons != reportedReasons else { return }
        reportedReasons = reasons
        if reasons.isEmpty { emit(.captureEnabled, []) } else { emit(.captureDisabled, [Wire.reasons(reasons)]) }
        propertiesChanged(["CaptureEnabled": .bool(reasons.isEmpty), "DisabledReasons": Wire.reasons(reasons)])
    }

    func locationChanged(_ fix: LocationFix?) {
        emit(.locationChanged, [Wire.location(fix)])
        propertiesChanged(["Location": Wire.location(fix)])
    }

    /// IsRecordingVideo changed.
    func recordingChanged(_ recording: Bool) {
        propertiesChanged(["IsRecordingVideo": .bool(recording)])
    }

    // MARK: Rules

    private var disabledReasons: [DisabledReason] { disabledReasons(under: context.sources.conditions) }

    private var disabledReasonDetails: [DisabledReason: String] { disabledReasonDetails(under: context.sources.conditions) }

    private func disabledReasons(under conditions: CaptureConditions) -> [DisabledReason] {
        conditions.disabledReasons(accuracy: maximumLocationAccuracy, usesMicrophone: audio)
    }

    private func disabledReasonDetails(under conditions: CaptureConditions) -> [DisabledReason: String] {
        conditions.explanations(accuracy: maximumLocationAccuracy, enrollmentProblem: context.sources.enrollmentProblem,
                                usesMicrophone: audio)
    }

    private var isRecording: Bool { context.host.machine.isRecording(number) }

    /// The owning connection — or, for a persistent session, any connection of the owning user.
    private func isOwner(_ sender: String) -> Bool {
        sender == owner || (isPersistent && (try? context.bus.peerUID(sender)) == uid)
    }

    /// An admitted call: a persistent session's signals follow the connection that called last,
    /// and the call counts as activity for the idle timeout.
    private func follow(_ sender: String) {
        owner = sender
        lastActivity = context.clock.monotonic()
    }

    func requireCaptureEnabled() throws {
        let reasons = disabledReasons
        if reasons.contains(.location), let denied = context.sources.locationPermissionProblem {
            throw LensError.locationPermissionDenied(denied)
        }
        guard reasons.isEmpty else {
            throw LensError.captureDisabled("capture is disabled: \(reasons.map(\.rawValue).joined(separator: ", "))"
                + (reasons.contains(.location) ? " (no fix within \(Int(maximumLocationAccuracy)) m yet)" : ""))
        }
        if let share = context.storeCalls.store.freeSpaceShare(of: uid), share.room <= 0 {
            throw LensError.captureDisabled("capture is disabled for you: \(share.refusal)")
        }
    }
}
