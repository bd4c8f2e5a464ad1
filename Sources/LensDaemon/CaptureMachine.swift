/// The capture core as a state machine: who holds the camera, what is attached to the claim,
/// the recording, every capture under way, and whether lensd is stopping. The event loop owns the
/// one instance (MachineHost); flows never change this state themselves — they ask for a
/// transition, and every transition answers with the effects it emits, which the host hands to
/// every flow in order (CaptureFlow). It also decides every refusal: a flow asks, the machine says
/// no, and the host words the answer.
///
///     idle ──claim(s)──▶ claimed(s) ──release(s)──▶ idle
///     claimed(s) ──startRecording──▶ recording(s) ──stopRecording──▶ recording(s), stop asked
///     recording(s) ──recordingEnded──▶ claimed(s) (or idle when the claim ended meanwhile),
///                                      and a `video` ticket while the finished video is published
///     any ──beginCapture──▶ a `photo` ticket ──endCapture──▶ (ended exactly once)
///     claimed(s) ──attach(a)──▶ a works the claim ──detach(a) / release──▶ a ended
///     any ──stop──▶ settling ──(nothing recording, no ticket)──▶ settled
///
/// Sessions are named by their number, so the machine knows nothing of the bus.
struct CaptureMachine {
    typealias SessionID = Int

    /// What works the claim beside captures, one of each at a time: the live preview and a face
    /// auto-capture. PreviewFlow and FaceFlow each keep what belongs to theirs (ClaimAttachment).
    enum Attachment: Hashable, CaseIterable, Sendable {
        case preview, faceAutoCapture
    }

    /// A capture on its way to being stored and announced: a photo being made and signed, or a
    /// finished video being signed and published. Issued by the machine, ended exactly once.
    struct Ticket: Hashable, Sendable {
        enum Kind: Hashable, Sendable { case photo, video }
        let id: Int
        let kind: Kind
        let name: String
        /// The session it is announced to; nil for a video recovered after a crash (its owner's).
        let session: SessionID?
    }

    struct ActiveRecording: Equatable {
        let name: String
        let session: SessionID
        /// The recording holds the microphone (a probe must not open it meanwhile).
        let withSound: Bool
        var stopRequested = false
    }

    /// The phase a reader (and a test) sees; derived from the state below, never stored.
    enum Phase: Equatable {
        case idle
        case claimed(SessionID)
        case recording(SessionID, name: String)
        /// Stopping: waits for the recording and every ticket.
        case settling
    }

    /// What a transition emits, in the order flows must act on it.
    enum Effect: Equatable {
        /// The session is gone (closed, its owner left): a wait of its for the camera ends.
        case sessionEnded(SessionID)
        /// The Manager's CameraHolder changed (nil: free).
        case holderChanged(SessionID?)
        /// An attachment of `SessionID`'s claim began: the frame pipeline has a sink to feed.
        case attached(Attachment, SessionID)
        /// It ended (detached, the claim ended, or its frames failed with `LensError`, which its
        /// owner is told): its flow takes it off the pipeline.
        case detached(Attachment, SessionID, failure: LensError?)
        /// The claim of `SessionID` ended: what belongs to it ends, and the camera closes.
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

    /// Why something is refused: the machine decides, the host words the answer.
    enum Refusal: Error, Equatable {
        case heldBy(SessionID)
        case noCamera
        case recordingBy(SessionID)
        case notClaimed
        case notRecording
        /// The asker records: the camera, its mode or (where zoom crops photos only) its zoom
        /// cannot change, since the encoder and the manifest are bound to what it started with.
        case recordingUnderWay(Change)
        /// One of that attachment runs already.
        case alreadyAttached(Attachment)

        enum Change: Equatable { case camera, mode, zoom }
    }

    private(set) var holder: SessionID?
    private(set) var attachments: Set<Attachment> = []
    private(set) var recording: ActiveRecording?
    private(set) var tickets: [Int: Ticket] = [:]
    private(set) var isSettling = false
    /// Tickets ended twice or never issued: a flow's mistake, kept for tests (never a crash).
    private(set) var faults: [String] = []
    private var nextTicket = 1

    var phase: Phase {
        if isSettling { return .settling }
        if let recording { return .recording(recording.session, name: recording.name) }
        return holder.map(Phase.claimed) ?? .idle
    }

    /// Something under way works the claim: it is never idle then. A preview works it only while
    /// its reader reads, which its flow knows (CameraClaim asks it); an unread one does not.
    var claimIsWorking: Bool {
        !tickets.isEmpty || recording != nil || attachments.contains(.faceAutoCapture)
    }

    /// Finished videos being signed and published.
    var publishing: [Ticket] { tickets.values.filter { $0.kind == .video } }

    func holds(_ session: SessionID) -> Bool { holder == session }

    func isRecording(_ session: SessionID) -> Bool { recording?.session == session }

    // MARK: Questions that refuse

    /// A call that needs the claim.
    func requireClaim(by session: SessionID) throws(Refusal) {
        guard holder == session else { throw .notClaimed }
    }

    /// A change the asker's recording would not survive.
    func requireNotRecording(_ session: SessionID, toChange change: Refusal.Change) throws(Refusal) {
        if recording?.session == session { throw .recordingUnderWay(change) }
    }

    /// An attachment about to be made (before its slow setup).
    func requireDetached(_ attachment: Attachment) throws(Refusal) {
        if attachments.contains(attachment) { throw .alreadyAttached(attachment) }
    }

    // MARK: The claim

    mutating func claim(for session: SessionID, cameraAvailable: Bool) throws(Refusal) -> [Effect] {
        if holder == session { return [] }
        if let holder { throw .heldBy(holder) }
        guard cameraAvailable else { throw .noCamera }
        holder = session
        return [.holderChanged(session)]
    }

    /// Idempotent: releasing what `session` does not hold emits nothing. Attachments end first; a
    /// recording under way is asked to stop, and is still finalized, signed and published.
    mutating func release(_ session: SessionID) -> [Effect] {
        guard holder == session else { return [] }
        holder = nil
        let ended = Attachment.allCases.filter(attachments.contains).map { Effect.detached($0, session, failure: nil) }
        attachments.removeAll()
        var effects: [Effect] = [.holderChanged(nil)] + ended + [.claimEnded(session)]
        if let stop = requestStop() { effects.append(stop) }
        return effects + [.offerClaim]
    }

    /// The session closed: its wait for the camera ends, then its claim.
    mutating func endSession(_ session: SessionID) -> [Effect] {
        [.sessionEnded(session)] + release(session)
    }

    // MARK: Attachments

    mutating func attach(_ attachment: Attachment, by session: SessionID) throws(Refusal) -> [Effect] {
        try requireClaim(by: session)
        try requireDetached(attachment)
        attachments.insert(attachment)
        return [.attached(attachment, session)]
    }

    /// Idempotent: what is not attached does not end.
    mutating func detach(_ attachment: Attachment, failure: LensError? = nil) -> [Effect] {
        guard let holder, attachments.remove(attachment) != nil else { return [] }
        return [.detached(attachment, holder, failure: failure)] + workEnded()
    }

    /// The claim's frames stopped coming (the camera failed): every attachment ends, saying why.
    mutating func framesFailed(_ failure: LensError) -> [Effect] {
        Attachment.allCases.filter(attachments.contains).flatMap { detach($0, failure: failure) }
    }

    // MARK: The recording

    /// A recording about to be prepared (before its files are made).
    func requireMayRecord(_ session: SessionID) throws(Refusal) {
        if let recording { throw .recordingBy(recording.session) }
        try requireClaim(by: session)
    }

    mutating func startRecording(_ name: String, by session: SessionID, withSound: Bool = false) throws(Refusal) -> [Effect] {
        try requireMayRecord(session)
        recording = ActiveRecording(name: name, session: session, withSound: withSound)
        return [.recordingChanged(session, recording: true)]
    }

    /// Idempotent for the recording session.
    mutating func stopRecording(by session: SessionID) throws(Refusal) -> [Effect] {
        guard recording?.session == session else { throw .notRecording }
        return requestStop().map { [$0] } ?? []
    }

    /// A limit, a fault, a full disk or a revoked certificate ends the recording from within.
    mutating func stopRecording() -> [Effect] {
        requestStop().map { [$0] } ?? []
    }

    /// Its frames stopped. When frames were kept (`kept`), the finished video's publishing is a
    /// ticket, issued in the same step so that nothing is between recording and publishing.
    mutating func recordingEnded(_ name: String, kept: Bool) -> (ticket: Ticket?, effects: [Effect]) {
        guard let ended = recording, ended.name == name else { return (nil, []) }
        recording = nil
        let ticket = kept ? issue(.video, name: name, session: ended.session) : nil
        return (ticket, [.recordingChanged(ended.session, recording: false)] + workEnded())
    }

    // MARK: Tickets

    /// A photo asked for (or a face auto-capture's chosen frame), or a recovered video to publish.
    mutating func beginCapture(_ kind: Ticket.Kind, name: String, session: SessionID?) -> Ticket {
        issue(kind, name: name, session: session)
    }

    /// Stored and announced, or failed: the ticket ends. Ending one twice emits nothing and is
    /// noted in `faults`.
    mutating func endCapture(_ ticket: Ticket) -> [Effect] {
        guard tickets.removeValue(forKey: ticket.id) != nil else {
            faults.append("\(ticket.kind) \(ticket.name) ended twice (ticket \(ticket.id))")
            return []
        }
        return workEnded()
    }

    // MARK: Stopping

    /// lensd is stopping: a recording is stopped as StopVideoCapture would; `settled` comes once
    /// nothing is recorded, signed or stored any more (at once when nothing is).
    mutating func stop() -> [Effect] {
        isSettling = true
        let stop = requestStop().map { [$0] } ?? []
        return stop + (isSettled ? [.settled] : [])
    }

    // MARK: Private

    private var isSettled: Bool { recording == nil && tickets.isEmpty }

    private mutating func issue(_ kind: Ticket.Kind, name: String, session: SessionID?) -> Ticket {
        let ticket = Ticket(id: nextTicket, kind: kind, name: name, session: session)
        nextTicket += 1
        tickets[ticket.id] = ticket
        return ticket
    }

    private mutating func requestStop() -> Effect? {
        guard let name = recording?.name, recording?.stopRequested == false else { return nil }
        recording?.stopRequested = true
        return .stopRecording(name: name)
    }

    private func workEnded() -> [Effect] {
        [.claimActivity] + (isSettling && isSettled ? [.settled] : [])
    }
}

/// A flow: a small type that asks the machine for transitions (through MachineHost) and acts on
/// the effects of every transition, its own and others'.
protocol CaptureFlow: AnyObject {
    func handle(_ effect: CaptureMachine.Effect)
}
