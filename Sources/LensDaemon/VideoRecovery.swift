import LensBus
import LensCore

/// Recordings a crash interrupted are finalized up to their last complete fragment, signed with
/// the facts of their start when the key is usable (else kept unsigned), and published under the
/// name StartVideoCapture's owner already knows. A journal with no complete fragment holds
/// nothing playable and is removed.
struct VideoRecovery {
    let service: LensService

    func recoverInterruptedRecordings() {
        let store = service.store, back = service.loop.confine(service)
        for interrupted in store.interruptedRecordings() {
            service.signingWorker.submit {
                let saved = RecordingFacts.read(besides: interrupted.path)
                do {
                    let video = try MP4Recovery.finalize(path: interrupted.path)
                    Log.warning("video \(interrupted.name): recovered after a crash: \(video.duration) s, "
                        + "\(video.droppedBytes) bytes of a torn fragment dropped")
                    back.post { service in
                        service.transition { $0.captureStarted() }
                        service.videos.publish(video, name: interrupted.name, uid: interrupted.uid, facts: saved?.facts,
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
}
