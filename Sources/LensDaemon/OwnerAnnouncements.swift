import LensBus
import LensCore

/// Signals about a user's results that no call of theirs asked for — a recovered video, a result
/// retention deleted — reach every session of theirs open now, else the next one they open.
extension LensService {
    func announce(toOwner uid: UInt32, member: String, arguments: [BusValue]) {
        let open = sessions.values.filter { $0.uid == uid }
        guard open.isEmpty else {
            for session in open { session.emit(member, arguments) }
            return
        }
        pendingAnnouncements[uid, default: []].append((member, arguments))
    }

    /// After OpenSession has answered: what happened to this user's results before they connected.
    func announcePending(to session: Session) {
        guard let pending = pendingAnnouncements.removeValue(forKey: session.uid) else { return }
        for announcement in pending { session.emit(announcement.member, announcement.arguments) }
    }

    /// Retention at the per-user caps is logged and told to the owner (ResultEvicted), never silent.
    func announceEvictions() {
        store.onEviction { [weak self] evicted, reason in
            self?.loop.post { [weak self] in
                Log.info("\(evicted.mime.hasPrefix("video/") ? "video" : "photo") \(evicted.name) of "
                    + "\(Authorizer.userName(evicted.uid)) deleted (\(evicted.size) bytes): \(reason)")
                self?.announce(toOwner: evicted.uid, member: "ResultEvicted", arguments: [.string(evicted.name), .string(reason)])
            }
        }
    }
}
