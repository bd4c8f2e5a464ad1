import Foundation
import LensBus
import LensCore

/// org.lensd.Lens1.Session at /org/lensd/Lens1/session/N. Only its owner — the connection that
/// opened it — may call it or read its properties; it dies with the owner's connection.
/// A persistent session (OpenSession option "persistent": true, for one-shot clients such as
/// busctl) belongs to the opener's uid instead: any connection of that user may use it, signals
/// follow the connection that called it last, and it ends with Close or the idle timeout.
final class Session: BusInterface, @unchecked Sendable {  // confined to the loop thread
    static let interfaceName = "org.lensd.Lens1.Session"

    let number: Int
    let path: String
    private(set) var owner: String
    let uid: UInt32
    let isPersistent: Bool
    private(set) var maximumLocationAccuracy: Double
    /// OpenSession's `audio`: false turns sound off for this session's videos.
    let audio: Bool
    private(set) var lastActivity = ContinuousClock.now
    private(set) var cameraMode = "photo"
    private var reportedReasons: [DisabledReason]
    private var reportedDetails: [DisabledReason: String] = [:]
    unowned let service: LensService
    private var registration: BusRegistration?
    private var tracking: BusRegistration?
    private var subjectWatch: SubjectWatch?
    private var pinch = PinchGesture()

    init(service: LensService, number: Int, owner: String, uid: UInt32, accuracy: Double, persistent: Bool, audio: Bool) {
        self.service = service
        isPersistent = persistent
        self.number = number
        self.owner = owner
        self.uid = uid
        path = "\(BusContract.sessionsPath)/\(number)"
        maximumLocationAccuracy = accuracy
        self.audio = audio
        reportedReasons = service.conditions.disabledReasons(accuracy: accuracy, usesMicrophone: audio)
    }

    func register() throws {
        registration = try service.bus.export(self, at: path)
        guard !isPersistent else { return }
        tracking = try service.bus.track(peer: owner) { [weak self] in
            guard let self else { return }
            Log.debug("session \(self.number): its owner \(self.owner) left the bus")
            self.service.close(self)
        }
    }

    func unregister() {
        subjectWatch = nil
        tracking?.cancel()
        registration?.cancel()
    }

    // MARK: The interface, as a table: every member is owner-only.

    let interface = BusContract.session

    func call(_ call: MethodCall) -> MethodResult {
        do { try authorize(call.sender) } catch { return .error(LensError.from(error).busError) }
        do {
            switch call.member {
            case "StartCaptureSession": return startCaptureSession(call)
            case "WaitForCamera": return try waitForCamera(call)
            case "StopCaptureSession": return try stopCaptureSession()
            case "Close": return close()
            case "BeginCapture": return try beginCapture()
            case "FetchResult": return try fetchResult(call)
            case "ReadResult": return try readResult(call)
            case "SetFlashMode": return try setFlashMode(call)
            case "ToggleFlash": return try toggleFlash(call)
            case "ChangeCamera": return try changeCamera(call, to: nil)
            case "SelectCamera": return try changeCamera(call, to: call.arguments.first?.stringValue ?? "")
            case "SetZoomFactor": return try setZoomFactor(call, relative: false)
            case "Zoom": return try setZoomFactor(call, relative: true)
            case "FocusAt": return try focusAt(call)
            case "StartVideoCapture": return try startVideoCapture()
            case "StopVideoCapture": return try stopVideoCapture()
            case "SetMaximumLocationAccuracy": return setMaximumLocationAccuracy(call)
            case "OpenPreview": return try openPreview(call)
            case "ClosePreview": return closePreview()
            case "StartFaceAutoCapture": return try startFaceAutoCapture(call)
            case "RequestFaceCapture": return try requestFaceCapture()
            case "RestartFaceAutoCapture": return try restartFaceAutoCapture()
            case "StopFaceAutoCapture": return stopFaceAutoCapture()
            default: return .error(BusError("org.freedesktop.DBus.Error.UnknownMethod", "no method \(call.member)"))
            }
        } catch {
            let failure = LensError.from(error)
            // After the reply (the loop sends it when call returns), so a client sees the reply first.
            if Self.controls.contains(call.member) || failure.isMicrophonePermissionDenied {
                service.loop.post { [weak self] in self?.failed(failure) }
            }
            return .error(failure.busError)
        }
    }

    /// The camera controls (and a refused microphone, as the SDK reports it): a failure also goes out as Failed, as the SDK's control callbacks
    /// carry their error, so that a client driven by signals learns of it.
    static let controls: Set<String> = ["SetFlashMode", "ToggleFlash", "ChangeCamera", "SelectCamera", "SetZoomFactor", "Zoom",
                                         "FocusAt"]

    func get(property: String, sender: String) throws -> BusValue {
        do { try authorize(sender) } catch { throw LensError.from(error).busError }
        switch property {
        case "CameraMode": return .string(cameraMode)
        case "IsRecordingVideo": return .bool(isRecording)
        case "VideoRecordingProgress": return Wire.progress(isRecording ? service.recording : nil)
        case "CurrentDevice": return service.currentState.map(Wire.device) ?? .vardict([:])
        case "CaptureEnabled": return .bool(service.disabledReasons(for: self).isEmpty)
        case "DisabledReasons": return Wire.reasons(service.disabledReasons(for: self))
        case "DisabledReasonDetails": return Wire.reasonDetails(service.disabledReasonDetails(for: self))
        case "MaximumLocationAccuracy": return .double(maximumLocationAccuracy)
        case "Location": return Wire.location(service.visibleFix)
        case "PreviewActive": return .bool(service.isPreviewing(self))
        case "PreviewStats": return service.previewStats(of: self)
        case "FaceAutoCaptureState": return .string(service.faceAutoCaptureState(of: self))
        default: throw BusError("org.freedesktop.DBus.Error.UnknownProperty", "no property \(property)")
        }
    }

    func set(property: String, value: BusValue, sender: String) throws {
        do { try authorize(sender) } catch { throw LensError.from(error).busError }
        guard property == "CameraMode", let mode = value.stringValue else {
            throw BusError("org.freedesktop.DBus.Error.PropertyReadOnly", "\(property) is read-only")
        }
        guard mode == "photo" || mode == "video" else {
            throw LensError.invalidArgument("camera mode must be photo or video").busError
        }
        guard !isRecording else { throw LensError.busy("the camera mode cannot change while recording").busError }
        guard mode != cameraMode else { return }
        cameraMode = mode
        propertiesChanged(["CameraMode": .string(mode)])
    }

    // MARK: Methods

    private func startCaptureSession(_ call: MethodCall) -> MethodResult {
        let reply = DeferredReply(for: call)
        service.startCapture(for: self, reply: reply)
        return .deferred(reply)
    }

    /// StartCaptureSession, queued: answered when this session holds the camera, first come first
    /// served, or with Busy once `timeout` seconds have passed.
    private func waitForCamera(_ call: MethodCall) throws -> MethodResult {
        guard let seconds = call.arguments.first?.doubleValue, seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw LensError.invalidArgument("the timeout must be a number of seconds in (0, 86400]")
        }
        let reply = DeferredReply(for: call)
        service.waitForCamera(for: self, caller: call.sender, timeout: .milliseconds(Int(seconds * 1000)), reply: reply)
        return .deferred(reply)
    }

    /// Idempotent: stopping a session that holds nothing is not an error. It also ends a wait.
    private func stopCaptureSession() throws -> MethodResult {
        service.stopWaiting(self, because: "StopCaptureSession was called")
        service.release(self)
        return .reply([])
    }

    private func close() -> MethodResult {
        service.close(self)
        return .reply([])
    }

    private func beginCapture() throws -> MethodResult {
        try requireClaim()
        guard cameraMode == "photo" else {
            throw LensError.unsupported("BeginCapture takes photos; the camera mode is video (use StartVideoCapture)")
        }
        try requireCaptureEnabled()
        let name = UUID().uuidString.lowercased()
        service.capturePhoto(name: name, for: self)
        return .reply([.string(name)])
    }

    private func startVideoCapture() throws -> MethodResult {
        try requireClaim()
        guard cameraMode == "video" else {
            throw LensError.unsupported("StartVideoCapture records video; set CameraMode to video first")
        }
        try requireCaptureEnabled()
        try service.startRecording(for: self)
        emit("VideoRecordingStarted", [])
        return .reply([])
    }

    private func stopVideoCapture() throws -> MethodResult {
        try service.stopRecording(for: self)
        return .reply([])
    }

    private func fetchResult(_ call: MethodCall) throws -> MethodResult {
        let name = try LensService.resultName(call), uid = uid
        return service.fromStore(call) { store in
            let stored = try store.result(name: name, uid: uid)
            return ([Wire.result(stored)], try store.fetchDescriptor(name: name, uid: uid).take())
        }
    }

    private func readResult(_ call: MethodCall) throws -> MethodResult {
        let name = try LensService.resultName(call), uid = uid
        return service.fromStore(call) { store in
            let stored = try store.result(name: name, uid: uid)
            guard stored.mime.hasPrefix("image/") else {
                throw LensError.unsupported("ReadResult returns photos only; use FetchResult for \(stored.mime)")
            }
            return ([.bytes(try store.read(name: name, uid: uid))], nil)
        }
    }

    private func setFlashMode(_ call: MethodCall) throws -> MethodResult {
        try requireClaim()
        guard let text = call.arguments.first?.stringValue, let mode = FlashMode(rawValue: text) else {
            throw LensError.invalidArgument("flash mode must be off, on or auto")
        }
        return applyFlash(mode, call: call, returnsMode: false)
    }

    private func toggleFlash(_ call: MethodCall) throws -> MethodResult {
        try requireClaim()
        guard let state = service.currentState, state.hasFlash, !state.supportedFlashModes.isEmpty else {
            throw LensError.unsupported("this camera has no flash")
        }
        let modes = state.supportedFlashModes
        let next = modes[((modes.firstIndex(of: state.flashMode) ?? -1) + 1) % modes.count]
        return applyFlash(next, call: call, returnsMode: true)
    }

    private func applyFlash(_ mode: FlashMode, call: MethodCall, returnsMode: Bool) -> MethodResult {
        let reply = DeferredReply(for: call)
        service.control({ try $0.setFlashMode(mode) }, for: self, reply: reply) { [weak self] in
            self?.emit("FlashModeChanged", [.string(mode.rawValue)])
            self?.deviceStateChanged()
            return returnsMode ? [.string(mode.rawValue)] : []
        }
        return .deferred(reply)
    }

    /// ChangeCamera (`path` nil: the back/front toggle) or SelectCamera (the camera at `path`).
    private func changeCamera(_ call: MethodCall, to path: String?) throws -> MethodResult {
        try requireClaim()
        guard !isRecording else {
            throw LensError.busy("changing the camera is not possible while recording video: a recording's encoder and "
                + "its manifest are bound to the camera it started on")
        }
        let reply = DeferredReply(for: call)
        pinch.end()
        service.switchCamera(to: path, for: self, reply: reply) { [weak self] state in
            self?.emit("DeviceChanged", [Wire.device(state)])
            self?.deviceStateChanged()
        }
        return .deferred(reply)
    }

    /// SetZoomFactor is absolute. Zoom is a pinch: its scale is cumulative from the gesture's
    /// start, so it multiplies the factor the gesture started at (see PinchGesture).
    private func setZoomFactor(_ call: MethodCall, relative: Bool) throws -> MethodResult {
        try requireClaim()
        if isRecording, service.currentState?.zoomAppliesToVideo != true {
            throw LensError.busy("zooming is not possible while recording on this camera: its digital zoom crops photos only, "
                + "not the video frames it streams")
        }
        guard let value = call.arguments.first?.doubleValue, value.isFinite, value > 0 else {
            throw LensError.invalidArgument(relative ? "the pinch scale must be a finite number above 0"
                                                     : "the zoom factor must be a finite number, 1 or more")
        }
        let current = service.currentState?.zoomFactor ?? 1
        // A pinch past the ends clamps, as on the SDK; an absolute factor below 1 is an error.
        let requested = relative ? max(1, pinch.factor(forScale: value, current: current)) : value
        if !relative { pinch.end() }
        let reply = DeferredReply(for: call)
        service.control({ try $0.setZoom(requested) }, for: self, reply: reply) { [weak self] factor in
            self?.emit("ZoomFactorChanged", [.double(factor)])
            self?.deviceStateChanged()
            return [.double(factor)]
        }
        return .deferred(reply)
    }

    private func focusAt(_ call: MethodCall) throws -> MethodResult {
        try requireClaim()
        guard call.arguments.count == 2, let x = call.arguments[0].doubleValue, let y = call.arguments[1].doubleValue,
              (0...1).contains(x), (0...1).contains(y) else {
            throw LensError.invalidArgument("the focus point must be normalized: 0...1 on both axes")
        }
        let reply = DeferredReply(for: call)
        service.control({ try $0.focus(atX: x, y: y) }, for: self, reply: reply) { [weak self] point in
            self?.emit("FocusedOnPoint", [.double(point.x), .double(point.y)])
            self?.watchSubject()
            return [.double(point.x), .double(point.y)]
        }
        return .deferred(reply)
    }

    /// The reply (the pipe's read end and the format used) waits for the camera's frame size.
    private func openPreview(_ call: MethodCall) throws -> MethodResult {
        try requireClaim()
        let options = try PreviewOptions(call.arguments.first?.vardictValue ?? [:])
        let reply = DeferredReply(for: call)
        service.openPreview(for: self, options: options, reply: reply)
        return .deferred(reply)
    }

    /// Idempotent: closing no preview is not an error.
    private func closePreview() -> MethodResult {
        service.endPreview(of: self)
        return .reply([])
    }

    /// Out of range (or NaN/inf): false and nothing changes, as the SDK does.
    private func setMaximumLocationAccuracy(_ call: MethodCall) -> MethodResult {
        guard let meters = call.arguments.first?.doubleValue, LocationAccuracy.isValidThreshold(meters) else {
            return .reply([.bool(false)])
        }
        maximumLocationAccuracy = meters
        propertiesChanged(["MaximumLocationAccuracy": .double(meters)])
        conditionsChanged()
        return .reply([.bool(true)])
    }

    // MARK: Events to the owner

    func emit(_ member: String, _ arguments: [BusValue]) {
        do {
            try service.bus.emitSignal(path: path, interface: Self.interfaceName, member: member,
                                       arguments: arguments, destination: owner)
        } catch {
            Log.debug("session \(number): \(member) not delivered: \(error)")
        }
    }

    func failed(_ error: LensError) {
        let busError = error.busError
        emit("Failed", [.string(busError.name), .string(busError.message)])
    }

    func propertiesChanged(_ changed: [String: BusValue]) {
        try? service.bus.emitPropertiesChanged(path: path, interface: Self.interfaceName, changed: changed, destination: owner)
    }

    private func deviceStateChanged() {
        if let state = service.currentState { propertiesChanged(["CurrentDevice": Wire.device(state)]) }
    }

    /// A signal-driven client learns the starting gate as it learns every change: CaptureDisabled
    /// when the session opens disabled (an enabled start needs no signal, as in the SDK).
    func announceInitialGate() {
        if !reportedReasons.isEmpty { emit("CaptureDisabled", [Wire.reasons(reportedReasons)]) }
    }

    /// Re-evaluates the gate for this session's threshold; signals only on a change.
    func conditionsChanged() {
        let reasons = service.disabledReasons(for: self)
        let details = service.disabledReasonDetails(for: self)
        if details != reportedDetails {
            reportedDetails = details
            propertiesChanged(["DisabledReasonDetails": Wire.reasonDetails(details)])
        }
        guard reasons != reportedReasons else { return }
        reportedReasons = reasons
        if reasons.isEmpty { emit("CaptureEnabled", []) } else { emit("CaptureDisabled", [Wire.reasons(reasons)]) }
        propertiesChanged(["CaptureEnabled": .bool(reasons.isEmpty), "DisabledReasons": Wire.reasons(reasons)])
    }

    func locationChanged(_ fix: LocationFix?) {
        emit("LocationChanged", [Wire.location(fix)])
        propertiesChanged(["Location": Wire.location(fix)])
    }

    // MARK: Helpers

    /// The owner, and still allowed to use lensd: membership is re-checked on every call, and a
    /// user no longer allowed loses all their sessions and the camera claim at once.
    private func authorize(_ sender: String) throws {
        guard isOwner(sender) else { throw LensError.notAuthorized("session \(number) belongs to another client") }
        try service.requireMembership(uid)
    }

    /// The owning connection — or, for a persistent session, any connection of the owning user,
    /// which then receives the session's signals. Counts as activity for the idle timeout.
    private func isOwner(_ sender: String) -> Bool {
        if sender != owner {
            guard isPersistent, (try? service.bus.peerUID(sender)) == uid else { return false }
            owner = sender
        }
        lastActivity = .now
        return true
    }

    private var isRecording: Bool { service.recording?.session === self }

    /// IsRecordingVideo changed (the flow calls it when a recording starts and ends).
    func recordingChanged(_ recording: Bool) {
        propertiesChanged(["IsRecordingVideo": .bool(recording)])
    }

    func requireCaptureEnabled() throws {
        let reasons = service.disabledReasons(for: self)
        guard reasons.isEmpty else {
            throw LensError.captureDisabled("capture is disabled: \(reasons.map(\.rawValue).joined(separator: ", "))"
                + (reasons.contains(.location) ? " (no fix within \(Int(maximumLocationAccuracy)) m yet)" : ""))
        }
    }

    /// Also counts as use of the camera, for the claim's idle timeout.
    func requireClaim() throws {
        guard service.claimHolder === self else {
            throw LensError.notStarted("call StartCaptureSession first")
        }
        service.claimUsed()
    }

    /// After a manual focus, SubjectAreaChanged tells the owner when the scene has changed enough
    /// that the focus point may be stale (the SDK's callback of the same name).
    private func watchSubject() {
        subjectWatch = SubjectWatch(service: service) { [weak self] in
            self?.emit("SubjectAreaChanged", [])
            self?.subjectWatch = nil
        }
    }

    func stopWatchingSubject() { subjectWatch = nil }
}
