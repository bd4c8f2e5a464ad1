import LensBus
import LensCore

/// A session's place in the queue for the camera.
struct CameraWaiter {
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

/// The camera claim. One session holds it (StartCaptureSession, Busy when taken); others may
/// queue for it (WaitForCamera) and are granted it first come, first served as it is released.
/// Who holds it is the Manager's CameraHolder, announced to every session's owner on every
/// change, so waiting clients never poll.
/// A claim left idle (no capture or recording under way, no call that uses the camera) for
/// claim-idle-timeout while others wait is released, and its owner told why.
extension LensService {
    func claim(for session: Session) throws {
        if claimHolder === session { return }
        if let holder = claimHolder { throw LensError.busy(inUse(by: holder)) }
        guard !rig.isEmpty, cameraConnected else { throw LensError.cameraSessionFailed("no camera is available") }
        claimHolder = session
        claimActivity = .now
    }

    func release(_ session: Session) {
        guard claimHolder === session else { return }
        claimHolder = nil
        session.stopWatchingSubject()
        endPreview(of: session)
        endFaceAutoCapture(of: session)
        // Ending the claim ends the recording; it is still finalized, signed and published.
        recording?.stopRequested.store(true, ordering: .relaxed)
        rig.run(on: currentCamera, { camera in
            camera.close()
            FreedMemory.giveBack()
        }) { _, _ in }
        grantToNextWaiter()
    }

    /// WaitForCamera: the claim at once when the camera is free (or already ours), else a place at
    /// the end of the queue. `reply` is answered once the device is open, as StartCaptureSession
    /// is, or with Busy when `timeout` passes first.
    func waitForCamera(for session: Session, caller: String, timeout: Duration, reply: DeferredReply) {
        guard let holder = claimHolder, holder !== session else { return startCapture(for: session, reply: reply) }
        guard !cameraWaiters.contains(where: { $0.session === session }) else {
            return reply.fail(LensError.busy("session \(session.number) is already waiting for the camera").busError)
        }
        let deadline = loop.schedule(after: timeout) { [weak self, weak session] in
            guard let self, let session, let waiter = self.removeWaiter(session) else { return }
            let holder = self.claimHolder.map(self.inUse) ?? "the camera was not released"
            waiter.reply.fail(LensError.busy("gave up waiting for the camera after \(timeout): \(holder)").busError)
        }
        let gone = try? bus.track(peer: caller) { [weak self, weak session] in
            if let session { self?.stopWaiting(session, because: "the caller left the bus") }
        }
        cameraWaiters.append(CameraWaiter(session: session, reply: reply, deadline: deadline, caller: gone))
        Log.debug("session \(session.number) waits for the camera (\(cameraWaiters.count) waiting; \(inUse(by: holder)))")
        checkIdleClaim()
    }

    /// StopCaptureSession, Close and the caller's disconnection leave the queue: the wait fails
    /// with NotStarted.
    func stopWaiting(_ session: Session, because reason: String) {
        removeWaiter(session)?.reply.fail(LensError.notStarted("stopped waiting for the camera: \(reason)").busError)
    }

    /// A call that uses the camera: the claim is not idle.
    func claimUsed() {
        claimActivity = .now
    }

    /// Releases an idle claim while others wait (see the type's comment); otherwise looks again
    /// when it could first be idle long enough. Called when someone starts waiting and when a
    /// capture or recording ends.
    func checkIdleClaim() {
        guard let holder = claimHolder, !cameraWaiters.isEmpty, idleClaimCheck == nil, !claimIsWorking else { return }
        let due = claimActivity + configuration.claimIdleTimeout
        guard ContinuousClock.now >= due else {
            idleClaimCheck = loop.schedule(after: due - .now) { [weak self] in
                self?.idleClaimCheck = nil
                self?.checkIdleClaim()
            }
            return
        }
        Log.info("session \(holder.number): releasing the camera, idle for \(configuration.claimIdleTimeout) "
            + "while \(cameraWaiters.count) waited")
        holder.failed(.busy("released: idle while others waited"))
        release(holder)
    }

    /// Something under way uses the claim: it is never idle then (and is looked at again when
    /// that ends). Whatever else comes to use the camera (a preview, a face auto-capture) belongs here too.
    private var claimIsWorking: Bool {
        capturesInFlight > 0 || recording != nil || preview != nil || faceRun != nil
    }

    func inUse(by holder: Session) -> String {
        "the camera is in use by \(Authorizer.userName(holder.uid)) (session \(holder.number))"
    }

    /// The Manager's CameraHolder: the holder's user name, "" when the camera is free.
    var cameraHolderName: String {
        claimHolder.map { Authorizer.userName($0.uid) } ?? ""
    }

    /// Sent to every connection with a session open — the clients a change concerns — rather
    /// than broadcast: a member who is not using lensd is not told who is.
    func cameraHolderChanged() {
        for owner in Set(sessions.values.map(\.owner)) {
            try? bus.emitPropertiesChanged(path: BusContract.managerPath, interface: BusContract.manager.name,
                                           changed: ["CameraHolder": .string(cameraHolderName)], destination: owner)
        }
    }

    /// The next waiter gets the claim; one that cannot (no camera now) is answered and the next tried.
    private func grantToNextWaiter() {
        while claimHolder == nil, !cameraWaiters.isEmpty {
            let next = cameraWaiters.removeFirst()
            next.cancel()
            startCapture(for: next.session, reply: next.reply)
        }
    }

    private func removeWaiter(_ session: Session) -> CameraWaiter? {
        guard let index = cameraWaiters.firstIndex(where: { $0.session === session }) else { return nil }
        let waiter = cameraWaiters.remove(at: index)
        waiter.cancel()
        return waiter
    }
}
