import LensBus
import LensCore
import LensMedia
import LensStorage

/// Recordings a crash interrupted are finalized up to their last complete fragment, signed with
/// the facts of their start when the key is usable (else kept unsigned), and published under the
/// name StartVideoCapture's owner already knows. A journal with no complete fragment holds
/// nothing playable and is removed.
struct VideoRecovery {
    let store: ResultStore
    let host: MachineHost
    let publisher: VideoPublisher
    let worker: any JobQueue
    let loop: any LoopExecutor

    func recoverInterruptedRecordings() {
        let store = store, back = loop.confine((host: host, publisher: publisher))
        for interrupted in store.interruptedRecordings() {
            worker.submit {
                let saved = RecordingFacts.read(besides: interrupted.path)
                do {
                    let video = try MP4Recovery.finalize(path: interrupted.path)
                    Log.warning("video \(interrupted.name): recovered after a crash: \(video.duration) s, "
                        + "\(video.droppedBytes) bytes of a torn fragment dropped")
                    back.post { context in
                        let ticket = context.host.beginCapture(.video, name: interrupted.name, session: nil)
                        context.publisher.publish(video, ticket: ticket, uid: interrupted.uid, facts: saved?.facts, fix: saved?.fix,
                                                  session: nil)
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
