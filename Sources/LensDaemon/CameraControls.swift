import FoundationEssentials
import LensBus
import LensCamera
import LensContract
import LensCore
import LensSystem

/// The claim holder's camera controls: flash, zoom, focus, camera switch. Each runs on the camera
/// thread and is answered when done; a failure also goes out as Failed (the session's table says
/// so). It owns what a control leaves behind on the claim: the pinch gesture and the subject watch.
final class CameraControls: CaptureFlow {
    private let host: MachineHost
    private let cameras: Cameras
    private let claimMove: ClaimMove
    private let loop: any LoopExecutor
    private let clock: LensClock
    private var pinch = PinchGesture()
    private var subjectWatch: SubjectWatch?

    init(host: MachineHost, cameras: Cameras, loop: any LoopExecutor, clock: LensClock) {
        self.host = host
        self.cameras = cameras
        claimMove = ClaimMove(host: host, cameras: cameras)
        self.loop = loop
        self.clock = clock
    }

    func handle(_ effect: CaptureMachine.Effect) {
        guard case .claimEnded = effect else { return }
        subjectWatch = nil
        pinch.end()
    }

    func setFlashMode(_ caller: Caller, for session: Session) throws -> MethodResult {
        guard let text = caller.arguments.first?.stringValue, let mode = FlashMode(rawValue: text) else {
            throw LensError.invalidArgument("flash mode must be off, on or auto")
        }
        return applyFlash(mode, caller, for: session, returnsMode: false)
    }

    func toggleFlash(_ caller: Caller, for session: Session) throws -> MethodResult {
        guard let state = cameras.current, state.hasFlash, !state.supportedFlashModes.isEmpty else {
            throw LensError.unsupported("this camera has no flash")
        }
        let modes = state.supportedFlashModes
        let next = modes[((modes.firstIndex(of: state.flashMode) ?? -1) + 1) % modes.count]
        return applyFlash(next, caller, for: session, returnsMode: true)
    }

    private func applyFlash(_ mode: FlashMode, _ caller: Caller, for session: Session, returnsMode: Bool) -> MethodResult {
        control({ try $0.setFlashMode(mode) }, caller, for: session) { state, _ in
            session.emit(.flashModeChanged, [.string(mode.rawValue)])
            session.propertiesChanged(["CurrentDevice": Wire.device(state)])
            return returnsMode ? [.string(mode.rawValue)] : []
        }
    }

    /// ChangeCamera (`path` nil: the back/front toggle) or SelectCamera (the camera at `path`).
    /// The claim moves with it; the holder's preview ends (the new picture may have another size).
    func changeCamera(_ caller: Caller, to path: String?, for session: Session) throws -> MethodResult {
        try host.require(by: session.number) { try $0.requireNotRecording(session.number, toChange: .camera) }
        pinch.end()
        let new = try cameras.target(path).get()
        let reply = DeferredReply(for: caller.call)
        guard new != cameras.currentIndex else {
            reply.reply([Wire.device(cameras.states[new])])
            return .deferred(reply)
        }
        claimMove.move(to: new) { [weak self] result in
            switch result {
            case .success(let state):
                reply.reply([Wire.device(state)])
                session.deviceChanged(state)
            case .failure(let error): self?.failed(error, session: session, reply: reply)
            }
        }
        return .deferred(reply)
    }

    /// SetZoomFactor is absolute. Zoom is a pinch: its scale is cumulative from the gesture's
    /// start, so it multiplies the factor the gesture started at (see PinchGesture).
    func zoom(_ caller: Caller, relative: Bool, for session: Session) throws -> MethodResult {
        if cameras.current?.zoomAppliesToVideo != true {
            try host.require(by: session.number) { try $0.requireNotRecording(session.number, toChange: .zoom) }
        }
        guard let value = caller.arguments.first?.doubleValue, value.isFinite, value > 0 else {
            throw LensError.invalidArgument(relative ? "the pinch scale must be a finite number above 0"
                                                     : "the zoom factor must be a finite number, 1 or more")
        }
        let current = cameras.current?.zoomFactor ?? 1
        // A pinch past the ends clamps, as on the SDK; an absolute factor below 1 is an error.
        let requested = relative ? max(1, pinch.factor(forScale: value, current: current, at: clock.monotonic())) : value
        if !relative { pinch.end() }
        return control({ try $0.setZoom(requested) }, caller, for: session) { state, factor in
            session.emit(.zoomFactorChanged, [.double(factor)])
            session.propertiesChanged(["CurrentDevice": Wire.device(state)])
            return [.double(factor)]
        }
    }

    /// After a manual focus, SubjectAreaChanged tells the owner when the scene has changed enough
    /// that the focus point may be stale (the SDK's callback of the same name).
    func focus(_ caller: Caller, for session: Session) throws -> MethodResult {
        let arguments = caller.arguments
        guard arguments.count == 2, let x = arguments[0].doubleValue, let y = arguments[1].doubleValue,
              (0...1).contains(x), (0...1).contains(y) else {
            throw LensError.invalidArgument("the focus point must be normalized: 0...1 on both axes")
        }
        return control({ try $0.focus(atX: x, y: y) }, caller, for: session) { [weak self] _, point in
            session.emit(.focusedOnPoint, [.double(point.x), .double(point.y)])
            self?.watchSubject(for: session)
            return [.double(point.x), .double(point.y)]
        }
    }

    /// Runs a control on the camera thread and answers the call when it is done; a failure is
    /// also sent to `session` as Failed, after the reply.
    private func control<T: Sendable>(_ body: @escaping @Sendable (any Camera) throws -> T, _ caller: Caller,
                                      for session: Session, then: @escaping (CameraState, T) -> [BusValue]) -> MethodResult {
        let reply = DeferredReply(for: caller.call)
        cameras.run(body) { [weak self] result, state in
            switch result {
            case .success(let value): reply.reply(then(state, value))
            case .failure(let error): self?.failed(LensError.from(error), session: session, reply: reply)
            }
        }
        return .deferred(reply)
    }

    /// A control that failed: the error reply, then Failed to its session.
    private func failed(_ error: LensError, session: Session, reply: DeferredReply) {
        reply.fail(error.busError)
        session.failed(error)
    }

    private func watchSubject(for session: Session) {
        subjectWatch = SubjectWatch(host: host, cameras: cameras, loop: loop) { [weak self] in
            session.emit(.subjectAreaChanged, [])
            self?.subjectWatch = nil
        }
    }
}
