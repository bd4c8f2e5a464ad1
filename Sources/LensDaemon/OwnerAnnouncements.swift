import LensBus
import LensContract
import LensCore

/// Signals about a user's results that no call of theirs asked for — a recovered video, a result
/// retention deleted, a later time-stamp — reach every session of theirs open now, else the next
/// one they open.
final class OwnerAnnouncements {
    private unowned let service: LensService
    private var pending: [UInt32: [(signal: Lens1.Signal, arguments: [BusValue])]] = [:]

    init(service: LensService) { self.service = service }

    func announce(toOwner uid: UInt32, signal: Lens1.Signal, arguments: [BusValue]) {
        let open = service.sessions.values.filter { $0.uid == uid }
        guard open.isEmpty else {
            for session in open { session.emit(signal, arguments) }
            return
        }
        pending[uid, default: []].append((signal, arguments))
    }

    /// After OpenSession has answered: what happened to this user's results before they connected.
    func sessionOpened(_ session: Session) {
        guard pending[session.uid] != nil else { return }
        service.loop.confine((self, session)).post { announcements, session in
            guard let waiting = announcements.pending.removeValue(forKey: session.uid) else { return }
            for announcement in waiting { session.emit(announcement.signal, announcement.arguments) }
        }
    }

    /// Retention at the per-user caps is logged and told to the owner (ResultEvicted), never silent.
    func announceEvictions() {
        let back = service.loop.confine(self)
        service.store.onEviction { evicted, reason in
            back.post { announcements in
                Log.info("\(evicted.mime.hasPrefix("video/") ? "video" : "photo") \(evicted.name) of "
                    + "\(Authorizer.userName(evicted.uid)) deleted (\(evicted.size) bytes): \(reason)")
                announcements.announce(toOwner: evicted.uid, signal: .resultEvicted,
                                       arguments: [.string(evicted.name), .string(reason)])
            }
        }
    }
}
