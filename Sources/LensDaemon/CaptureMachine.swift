import LensCore

/// The capture core as a state machine: who holds the camera, what is under way with it, and
/// whether lensd is stopping. The event loop owns the one instance (LensService.machine); flows
/// never change this state themselves — they ask for a transition, and every transition answers
/// with the effects it emits, which LensService hands to every flow in order (CaptureFlow).
///
///     idle ──claim(s)──▶ claimed(s) ──release(s)──▶ idle
///     claimed(s) ──startRecording──▶ recording(s) ──stopRecording──▶ recording(s), stop asked
///     recording(s) ──recordingEnded──▶ claimed(s), or idle when the claim ended meanwhile
///     any ──captureStarted / captureEnded── photos being signed, finished videos being published
///     any ──began / ended(use)── a preview or a face auto-capture works the claim
///     any ──stop──▶ settling ──(nothing recording or in flight)──▶ settled
///
/// Sessions are named by their number, so the machine knows nothing of the bus.
struct CaptureMachine {
    typealias SessionID = Int

    /// What, beside captures, keeps a claim busy: it is not idle while one runs.
    enum Use: Hashable {
        case preview, faceAutoCapture
    }

    struct ActiveRecording: Equatable {
        let name: String
        let session: SessionID
        var stopRequested = false
    }

    /// The phase a reader (and a test) sees; derived from the state below, never stored.
    enum Phase: Equatable {
        case idle
        case claimed(SessionID)
        case recording(SessionID, name: String)
        /// Stopping: waits for the recording and the captures in flight.
        case settling
    }

    /// What a transition emits, in the order flows must act on it.
    enum Effect: Equatable {
        /// The Manager's CameraHolder changed (nil: free).
        case holderChanged(SessionID?)
        /// The claim of `SessionID` ended: what belongs to it (preview, face auto-capture,
        /// subject watch) ends, and the camera closes.
        case claimEnded(SessionID)
        /// The recording must stop after its current frame; it is still finalized and signed.
        case stopRecording(name: String)
        /// IsRecordingVideo of the session changed.
        case recordingChanged(SessionID, recording: Bool)
        /// The camera is free: the next session waiting for it gets it.
        case offerClaim
        /// Work on the claim ended: its idle clock starts again, and it may be idle now.
        case claimActivity
        /// Stopping found nothing under way any more.
        case settled
    }

    /// Why a claim or recording is refused.
    enum Refusal: Error, Equatable {
        case heldBy(SessionID)
        case noCamera
        case recordingBy(SessionID)
        case notClaimed
        case notRecording
    }

    private(set) var holder: SessionID?
    private(set) var recording: ActiveRecording?
    /// Photos asked for but not yet stored and announced, finished recordings not yet published.
    private(set) var capturesInFlight = 0
    private(set) var uses: Set<Use> = []
    private(set) var isSettling = false

    var phase: Phase {
        if isSettling { return .settling }
        if let recording { return .recording(recording.session, name: recording.name) }
        return holder.map(Phase.claimed) ?? .idle
    }

    /// Something under way works the claim: it is never idle then.
    var claimIsWorking: Bool {
        capturesInFlight > 0 || recording != nil || !uses.isEmpty
    }

    func holds(_ session: SessionID) -> Bool { holder == session }

    // MARK: Transitions

    mutating func claim(for session: SessionID, cameraAvailable: Bool) throws(Refusal) -> [Effect] {
        if holder == session { return [] }
        if let holder { throw .heldBy(holder) }
        guard cameraAvailable else { throw .noCamera }
        holder = session
        return [.holderChanged(session)]
    }

    /// Idempotent: releasing what `session` does not hold emits nothing. A recording under way is
    /// asked to stop; it is still finalized, signed and published.
    mutating func release(_ session: SessionID) -> [Effect] {
        guard holder == session else { return [] }
        holder = nil
        uses.removeAll()
        var effects: [Effect] = [.holderChanged(nil), .claimEnded(session)]
        if let stop = requestStop() { effects.append(stop) }
        return effects + [.offerClaim]
    }

    mutating func startRecording(_ name: String, by session: SessionID) throws(Refusal) -> [Effect] {
        if let recording { throw .recordingBy(recording.session) }
        guard holder == session else { throw .notClaimed }
        recording = ActiveRecording(name: name, session: session)
        return [.recordingChanged(session, recording: true)]
    }

    /// Idempotent for the recording session.
    mutating func stopRecording(by session: SessionID) throws(Refusal) -> [Effect] {
        guard recording?.session == session else { throw .notRecording }
        return requestStop().map { [$0] } ?? []
    }

    /// A limit, a fault or a full disk ends the recording from within.
    mutating func stopRecording() -> [Effect] {
        requestStop().map { [$0] } ?? []
    }

    /// Its frames stopped; whether anything is kept is the video flow's business.
    mutating func recordingEnded(_ name: String) -> [Effect] {
        guard let ended = recording, ended.name == name else { return [] }
        recording = nil
        return [.recordingChanged(ended.session, recording: false)] + workEnded()
    }

    mutating func captureStarted() -> [Effect] {
        capturesInFlight += 1
        return []
    }

    mutating func captureEnded() -> [Effect] {
        precondition(capturesInFlight > 0, "a capture ended that never started")
        capturesInFlight -= 1
        return workEnded()
    }

    /// A preview or face auto-capture began on the claim (which the caller holds).
    mutating func began(_ use: Use) -> [Effect] {
        uses.insert(use)
        return []
    }

    mutating func ended(_ use: Use) -> [Effect] {
        guard uses.remove(use) != nil else { return [] }
        return workEnded()
    }

    /// lensd is stopping: a recording is stopped as StopVideoCapture would; `settled` comes once
    /// nothing is recorded, signed or stored any more (at once when nothing is).
    mutating func stop() -> [Effect] {
        isSettling = true
        let stop = requestStop().map { [$0] } ?? []
        return stop + (isSettled ? [.settled] : [])
    }

    // MARK: Private

    private var isSettled: Bool { recording == nil && capturesInFlight == 0 }

    private mutating func requestStop() -> Effect? {
        guard let name = recording?.name, recording?.stopRequested == false else { return nil }
        recording?.stopRequested = true
        return .stopRecording(name: name)
    }

    private func workEnded() -> [Effect] {
        [.claimActivity] + (isSettling && isSettled ? [.settled] : [])
    }
}

/// A flow: a small type that asks the machine for transitions (LensService.transition) and acts
/// on the effects of every transition, its own and others'.
protocol CaptureFlow: AnyObject {
    func handle(_ effect: CaptureMachine.Effect)
}
