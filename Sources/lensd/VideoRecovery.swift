import LensBus
import LensCore

extension LensService {
    /// Recordings a crash interrupted are finalized up to their last complete fragment, signed
    /// with the facts of their start when the key is usable (else kept unsigned), and published
    /// under the name StartVideoCapture's owner already knows. A journal with no complete
    /// fragment holds nothing playable and is removed.
    func recoverInterruptedRecordings() {
        for interrupted in store.interruptedRecordings() {
            let store = store
            signingWorker.submit { [weak self] in
                let saved = RecordingFacts.read(besides: interrupted.path)
                do {
                    let video = try MP4Recovery.finalize(path: interrupted.path)
                    Log.warning("video \(interrupted.name): recovered after a crash: \(video.duration) s, "
                        + "\(video.droppedBytes) bytes of a torn fragment dropped")
                    self?.loop.post { [weak self] in
                        self?.signAndPublish(video, name: interrupted.name, uid: interrupted.uid, facts: saved?.facts,
                                             fix: saved?.fix, session: nil, recovered: true)
                    }
                } catch {
                    Log.error("video \(interrupted.name): cannot be recovered (\(error)); removed")
                    store.discardRecording(name: interrupted.name, uid: interrupted.uid)
                    RecordingFacts.remove(besides: interrupted.path)
                }
            }
        }
    }

    /// A recovered video is announced to its owner — whose recording it was, though not through
    /// this run of lensd — on a session of theirs open now, else on the next one they open.
    func announceRecovered(uid: UInt32, member: String, arguments: [BusValue]) {
        if let session = sessions.values.first(where: { $0.uid == uid }) {
            session.emit(member, arguments)
        } else {
            recoveredAnnouncements[uid, default: []].append((member, arguments))
        }
    }

    /// After OpenSession has answered: what was recovered for this user before they connected.
    func announceRecovered(to session: Session) {
        guard let pending = recoveredAnnouncements.removeValue(forKey: session.uid) else { return }
        for announcement in pending { session.emit(announcement.member, announcement.arguments) }
    }
}
