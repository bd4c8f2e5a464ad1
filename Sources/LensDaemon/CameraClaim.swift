import LensBus
import LensContract
import LensCore
import LensSystem

/// A session's place in the queue for the camera.
private struct CameraWaiter {
    let session: Session
    let reply: DeferredReply
    /// Fails the wait when its timeout passes.
    let deadline: any Cancellable
    /// Ends the wait when the caller leaves the bus (a persistent session outlives its callers).
    let caller: (any Cancellable)?

    func cancel() {
        deadline.cancel()
        caller?.cancel()
    }
}

/// The camera claim's queue and clock. One session holds the claim (the machine says which);
/// others may queue for it (WaitForCamera) and are granted it first come, first served as it is
/// released. Who holds it is the Manager's CameraHolder, announced to every session's owner on
/// every change, so waiting clients never poll. A claim left idle (nothing under way, no call
/// that uses the camera, no preview its reader reads) for claim-idle-timeout while others wait
/// is released, and its owner told why.
final class CameraClaim: CaptureFlow {
    private let host: MachineHost
    private let sessions: Sessions
    private let cameras: Cameras
    private let bus: any BusPort
    private let manager: ManagerSignals
    private let loop: any LoopExecutor
    private let clock: LensClock
    private let idleTimeout: Duration
    /// Whether the holder's preview reader took a frame within the interval (a preview nobody
    /// reads is no use of the camera).
    private let previewIsRead: (Duration) -> Bool
    private var waiters: [CameraWaiter] = []
    /// When the holder last used the camera, and the timer that looks at it again while others wait.
    private var lastUse: ContinuousClock.Instant
    private var idleCheck: (any Cancellable)?

    init(host: MachineHost, sessions: Sessions, cameras: Cameras, bus: any BusPort, loop: any LoopExecutor, clock: LensClock,
         idleTimeout: Duration, previewIsRead: @escaping (Duration) -> Bool) {
        self.host = host
        self.sessions = sessions
        self.cameras = cameras
        self.bus = bus
        manager = ManagerSignals(bus: bus)
        self.loop = loop
        self.clock = clock
        self.idleTimeout = idleTimeout
        self.previewIsRead = previewIsRead
        lastUse = clock.monotonic()
    }

    func handle(_ effect: CaptureMachine.Effect) {
        switch effect {
        case .sessionEnded(let number):
            if let session = sessions[number] ?? waiters.first(where: { $0.session.number == number })?.session {
                stopWaiting(session, because: "the session was closed")
            }
        case .holderChanged(let holder):
            if holder != nil { used() }
            announceHolder()
        case .offerClaim: grantToNextWaiter()
        case .claimActivity:
            used()
            checkIdle()
        default: break
        }
    }

    /// StartCaptureSession: the claim, then the device opened on its thread; answered once it is.
    func start(for session: Session, reply: DeferredReply) {
        do {
            try host.transition(by: session.number) { try $0.claim(for: session.number, cameraAvailable: cameras.isAvailable) }
        } catch {
            return reply.fail(error.busError)
        }
        cameras.open { [host] result in
            switch result {
            case .success: reply.reply([])
            case .failure(let error):
                host.transition { $0.release(session.number) }
                reply.fail(error.busError)
            }
        }
    }

    /// WaitForCamera: the claim at once when the camera is free (or already ours), else a place at
    /// the end of the queue. `reply` is answered once the device is open, as StartCaptureSession
    /// is, or with Busy when `timeout` passes first.
    func wait(for session: Session, caller: String, timeout: Duration, reply: DeferredReply) throws -> MethodResult {
        guard let holder = sessions.holder, holder !== session else {
            start(for: session, reply: reply)
            return .deferred(reply)
        }
        guard !waiters.contains(where: { $0.session === session }) else {
            throw LensError.busy("session \(session.number) is already waiting for the camera")
        }
        let deadline = loop.schedule(after: timeout) { [weak self, weak session] in
            guard let self, let session, let waiter = self.removeWaiter(session) else { return }
            let holder = self.host.machine.holder.flatMap(self.sessions.inUse(by:)) ?? "the camera was not released"
            waiter.reply.fail(LensError.busy("gave up waiting for the camera after \(timeout): \(holder)").busError)
        }
        let gone = try? bus.track(peer: caller) { [weak self, weak session] in
            if let session { self?.stopWaiting(session, because: "the caller left the bus") }
        }
        waiters.append(CameraWaiter(session: session, reply: reply, deadline: deadline, caller: gone))
        Log.debug("session \(session.number) waits for the camera (\(waiters.count) waiting; \(sessions.inUse(by: holder.number) ?? ""))")
        checkIdle()
        return .deferred(reply)
    }

    /// StopCaptureSession, Close and the caller's disconnection leave the queue: the wait fails
    /// with NotStarted.
    func stopWaiting(_ session: Session, because reason: String) {
        removeWaiter(session)?.reply.fail(LensError.notStarted("stopped waiting for the camera: \(reason)").busError)
    }

    /// A call that uses the camera: the claim is not idle.
    func used() {
        lastUse = clock.monotonic()
    }

    /// The Manager's CameraHolder: the holder's user name, "" when the camera is free.
    var holderName: String {
        sessions.holder.map { Authorizer.userName($0.uid) } ?? ""
    }

    /// Releases an idle claim while others wait; otherwise looks again when it could first be
    /// idle long enough. Called when someone starts waiting and when work on the claim ends.
    private func checkIdle() {
        guard let holder = sessions.holder, !waiters.isEmpty, idleCheck == nil, !host.machine.claimIsWorking else { return }
        let preview = host.machine.attachments.contains(.preview)
        let idle = clock.monotonic() - lastUse
        guard idle >= idleTimeout, !(preview && previewIsRead(idleTimeout)) else {
            // A preview being read keeps it in use: looked at again after one more interval.
            let wait = idle >= idleTimeout ? idleTimeout : idleTimeout - idle
            idleCheck = loop.schedule(after: wait) { [weak self] in
                self?.idleCheck = nil
                self?.checkIdle()
            }
            return
        }
        Log.info("session \(holder.number): releasing the camera, idle for \(idleTimeout) while \(waiters.count) waited"
                 + (preview ? " (its preview unread)" : ""))
        holder.failed(.busy("released: idle while others waited"))
        host.transition { $0.release(holder.number) }
    }

    /// Sent to every connection with a session open — the clients a change concerns — rather
    /// than broadcast: a member who is not using lensd is not told who is.
    private func announceHolder() {
        for owner in Set(sessions.all.map(\.owner)) {
            manager.propertiesChanged(["CameraHolder": .string(holderName)], to: owner)
        }
    }

    /// The next waiter gets the claim; one that cannot (no camera now) is answered and the next tried.
    private func grantToNextWaiter() {
        while host.machine.holder == nil, !waiters.isEmpty {
            let next = waiters.removeFirst()
            next.cancel()
            start(for: next.session, reply: next.reply)
        }
    }

    private func removeWaiter(_ session: Session) -> CameraWaiter? {
        guard let index = waiters.firstIndex(where: { $0.session === session }) else { return nil }
        let waiter = waiters.remove(at: index)
        waiter.cancel()
        return waiter
    }
}
