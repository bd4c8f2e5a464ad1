import LensBus
import LensContract
import LensCore
import LensSystem

/// The open sessions: opened within the per-user cap, closed with their owner (or when left
/// idle, or when their user leaves the group), and how news reaches their owners — to every
/// session of a user now, or, for news of a result no call of theirs asked for, kept for the next
/// session they open when none is open.
final class Sessions {
    private(set) var byNumber: [Int: Session] = [:]
    private var nextNumber = 1
    private var pending: [UInt32: [(signal: Lens1.Signal, arguments: [BusValue])]] = [:]
    private let host: MachineHost
    private let authorizer: Authorizer
    private let configuration: Configuration
    private let clock: LensClock
    private let loop: any LoopExecutor
    /// Set once by the wiring root: what every session is made with.
    var context: SessionContext!

    init(host: MachineHost, authorizer: Authorizer, configuration: Configuration, clock: LensClock, loop: any LoopExecutor) {
        self.host = host
        self.authorizer = authorizer
        self.configuration = configuration
        self.clock = clock
        self.loop = loop
    }

    subscript(number: Int?) -> Session? { number.flatMap { byNumber[$0] } }

    var all: Dictionary<Int, Session>.Values { byNumber.values }

    func of(_ uid: UInt32) -> [Session] { byNumber.values.filter { $0.uid == uid } }

    /// The sessions `sender` may use — its connection's, and its user's persistent ones — by
    /// number; none for a caller who may not use lensd.
    func visible(to sender: String) -> [Int] {
        guard let uid = try? context.bus.peerUID(sender), authorizer.isAllowed(uid: uid) else { return [] }
        return byNumber.values.filter { $0.owner == sender || ($0.isPersistent && $0.uid == uid) }.map(\.number).sorted()
    }

    /// Whether `sender` may use lensd at all (root, lensd's user, a member of the group).
    func mayUseLensd(_ sender: String) -> Bool {
        (try? context.bus.peerUID(sender)).map(authorizer.isAllowed) ?? false
    }

    /// The session holding the camera claim.
    var holder: Session? { self[host.machine.holder] }

    /// Busy's words for the holder of a claim.
    func inUse(by number: Int) -> String? {
        self[number].map { "the camera is in use by \(Authorizer.userName($0.uid)) (session \($0.number))" }
    }

    // MARK: Opening and closing

    enum Closing { case now, afterAnswer }

    func open(owner: String, uid: UInt32, options: [String: BusValue]) throws -> Session {
        let own = of(uid).count
        guard own < configuration.maxSessionsPerUser else {
            throw LensError.busy("\(Authorizer.userName(uid)) already has \(own) sessions (max-sessions-per-user)")
        }
        let options = try SessionOptions(options)
        let session = Session(context, number: nextNumber, owner: owner, uid: uid, options: options)
        nextNumber += 1
        try session.register()
        byNumber[session.number] = session
        Log.debug("session \(session.number) opened by \(Authorizer.userName(uid)) (\(owner))")
        // After the reply, so the client knows the path they come from.
        loop.confine((self, session)).post { sessions, session in
            session.announceInitialGate()
            sessions.deliverPending(to: session)
        }
        return session
    }

    /// Idempotent. The claim and whatever waits for it end with the session.
    func close(_ session: Session) {
        guard byNumber.removeValue(forKey: session.number) != nil else { return }
        host.transition { $0.endSession(session.number) }
        session.unregister()
        Log.debug("session \(session.number) closed")
    }

    func closeAll() {
        for session in Array(byNumber.values) { close(session) }
    }

    /// Throws NotAuthorized, after closing every session of `uid`, when `uid` may no longer use
    /// lensd (removed from the group since it opened them).
    /// `closing`: a property read is answered on its object, so its sessions close after the
    /// answer (closing them now would make sd-bus answer UnknownObject instead); a method call's
    /// close at once, before any later call is looked at.
    func requireMembership(_ uid: UInt32, closing: Closing) throws(LensError) {
        guard !authorizer.isAllowed(uid: uid) else { return }
        switch closing {
        case .now: closeSessions(ofRevoked: uid)
        case .afterAnswer: loop.confine(self).post { $0.closeSessions(ofRevoked: uid) }
        }
        throw .notAuthorized("\(Authorizer.userName(uid)) is no longer in group \(configuration.allowedGroup): "
            + "their lensd sessions are closed")
    }

    /// Every second: users removed from the group (gpasswd -d) lose their sessions, their claim,
    /// a preview streaming to them and a recording (kept, and stopped) even if they make no call.
    /// The group database is read again only when /etc/group or /etc/passwd changed (Authorizer).
    func closeRevoked() {
        for uid in Set(byNumber.values.map(\.uid)) where !authorizer.isAllowed(uid: uid) { closeSessions(ofRevoked: uid) }
    }

    /// The periodic look: persistent sessions, which have no connection to die with, end when left idle.
    func closeStale() {
        let deadline = clock.monotonic() - configuration.sessionIdleTimeout
        // A recording is activity: a busctl user may record for longer than the timeout between calls.
        for session in Array(byNumber.values) where session.isPersistent && session.lastActivity < deadline
            && !host.machine.isRecording(session.number) {
            Log.info("session \(session.number) idle for \(configuration.sessionIdleTimeout): closing it")
            close(session)
        }
    }

    private func closeSessions(ofRevoked uid: UInt32) {
        for session in of(uid) {
            Log.warning("session \(session.number): \(Authorizer.userName(uid)) is no longer in group \(configuration.allowedGroup): closing it")
            close(session)
        }
    }

    // MARK: News for a user

    /// To every session `uid` has open now (news of the moment: an upload).
    func emit(_ signal: Lens1.Signal, _ arguments: [BusValue], toSessionsOf uid: UInt32) {
        for session in of(uid) { session.emit(signal, arguments) }
    }

    /// To every session of the result's owner, else the next one they open (a recovered video,
    /// a result retention deleted, a later time-stamp).
    func announce(toOwner uid: UInt32, _ signal: Lens1.Signal, _ arguments: [BusValue]) {
        let open = of(uid)
        guard open.isEmpty else {
            for session in open { session.emit(signal, arguments) }
            return
        }
        pending[uid, default: []].append((signal, arguments))
    }

    private func deliverPending(to session: Session) {
        guard byNumber[session.number] === session, let waiting = pending.removeValue(forKey: session.uid) else { return }
        for announcement in waiting { session.emit(announcement.signal, announcement.arguments) }
    }
}
