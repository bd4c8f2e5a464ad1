import LensBus
import LensContract
import LensCore

/// A session's place in the queue for the camera.
private struct CameraWaiter {
    let session: Session
    let reply: DeferredReply
    /// Fails the wait when its timeout passes.
    let deadline: EventSource
    /// Ends the wait when the caller leaves the bus (a persistent session outlives its callers).
    let caller: BusRegistration?

    func cancel() {
        deadline.cancel()
        caller?.cancel()
    }
}

/// The camera claim's queue and clock. One session holds the claim (the machine says which);
/// others may queue for it (WaitForCamera) and are granted it first come, first served as it is
/// released. Who holds it is the Manager's CameraHolder, announced to every session's owner on
/// every change, so waiting clients never poll. A claim left idle (nothing under way, no call
/// that uses the camera) for claim-idle-timeout while others wait is released, and its owner
/// told why.
final class CameraClaim: CaptureFlow {
    private unowned let service: LensService
    private var waiters: [CameraWaiter] = []
    /// When the holder last used the camera, and the timer that looks at it again while others wait.
    private var lastUse: ContinuousClock.Instant
    private var idleCheck: EventSource?

    init(service: LensService) {
        self.service = service
        lastUse = service.clock.monotonic()
    }

    func handle(_ effect: CaptureMachine.Effect) {
        switch effect {
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
            try service.transition(by: session) { try $0.claim(for: session.number, cameraAvailable: service.cameras.isAvailable) }
        } catch {
            return reply.fail(LensError.from(error).busError)
        }
        service.cameras.open { [weak self] result in
            switch result {
            case .success: reply.reply([])
            case .failure(let error):
                self?.service.release(session)
                reply.fail(error.busError)
            }
        }
    }

    /// WaitForCamera: the claim at once when the camera is free (or already ours), else a place at
    /// the end of the queue. `reply` is answered once the device is open, as StartCaptureSession
    /// is, or with Busy when `timeout` passes first.
    func wait(for session: Session, caller: String, timeout: Duration, reply: DeferredReply) throws -> MethodResult {
        guard let holder = service.holder, holder !== session else {
            start(for: session, reply: reply)
            return .deferred(reply)
        }
        guard !waiters.contains(where: { $0.session === session }) else {
            throw LensError.busy("session \(session.number) is already waiting for the camera")
        }
        let deadline = service.loop.schedule(after: timeout) { [weak self, weak session] in
            guard let self, let session, let waiter = self.removeWaiter(session) else { return }
            let holder = self.service.holder.map(self.inUse) ?? "the camera was not released"
            waiter.reply.fail(LensError.busy("gave up waiting for the camera after \(timeout): \(holder)").busError)
        }
        let gone = try? service.bus.track(peer: caller) { [weak self, weak session] in
            if let session { self?.stopWaiting(session, because: "the caller left the bus") }
        }
        waiters.append(CameraWaiter(session: session, reply: reply, deadline: deadline, caller: gone))
        Log.debug("session \(session.number) waits for the camera (\(waiters.count) waiting; \(inUse(by: holder)))")
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
        lastUse = service.clock.monotonic()
    }

    func inUse(by holder: Session) -> String {
        "the camera is in use by \(Authorizer.userName(holder.uid)) (session \(holder.number))"
    }

    /// The Manager's CameraHolder: the holder's user name, "" when the camera is free.
    var holderName: String {
        service.holder.map { Authorizer.userName($0.uid) } ?? ""
    }

    /// Releases an idle claim while others wait; otherwise looks again when it could first be
    /// idle long enough. Called when someone starts waiting and when work on the claim ends.
    private func checkIdle() {
        guard let holder = service.holder, !waiters.isEmpty, idleCheck == nil, !service.machine.claimIsWorking else { return }
        let timeout = service.configuration.claimIdleTimeout
        let idle = service.clock.monotonic() - lastUse
        guard idle >= timeout else {
            idleCheck = service.loop.schedule(after: timeout - idle) { [weak self] in
                self?.idleCheck = nil
                self?.checkIdle()
            }
            return
        }
        Log.info("session \(holder.number): releasing the camera, idle for \(timeout) while \(waiters.count) waited")
        holder.failed(.busy("released: idle while others waited"))
        service.release(holder)
    }

    /// Sent to every connection with a session open — the clients a change concerns — rather
    /// than broadcast: a member who is not using lensd is not told who is.
    private func announceHolder() {
        for owner in Set(service.sessions.values.map(\.owner)) {
            try? service.bus.emitPropertiesChanged(path: Lens1.managerPath, interface: Lens1.managerInterface,
                                                   changed: ["CameraHolder": .string(holderName)], destination: owner)
        }
    }

    /// The next waiter gets the claim; one that cannot (no camera now) is answered and the next tried.
    private func grantToNextWaiter() {
        while service.holder == nil, !waiters.isEmpty {
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
