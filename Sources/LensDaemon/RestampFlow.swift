import C2PA
import FoundationEssentials
import LensBus
import LensContract
import LensCore
import LensCrypto
import LensNetwork
import LensStorage
import Synchronization

/// `timestamp = when-online`: captures no TSA stamped are queued (RestampQueue) and time-stamped
/// by an update manifest once one answers; the owner then gets ResultUpdated, and the outbox
/// sends the new file again.
final class RestampFlow {
    let queue: RestampQueue
    private let sessions: Sessions
    private let outbox: Outbox?
    /// Replaced on the loop thread when the identity changes; read by the queue's thread.
    private let restamping = CurrentRestamping()

    final class CurrentRestamping: Sendable {
        let value = Mutex<Restamping?>(nil)
    }

    private let client: TSAClient

    static func make(_ configuration: Configuration, stateDirectory: URL, store: ResultStore, signing: SigningIdentity,
                     sessions: Sessions, outbox: Outbox?, loop: any LoopExecutor) throws -> RestampFlow? {
        guard let timeStamping = configuration.timeStamping, timeStamping.policy == .whenOnline else { return nil }
        return try RestampFlow(client: timeStamping.client, directory: stateDirectory.appendingPathComponent("restamp").path,
                               store: store, signing: signing, sessions: sessions, outbox: outbox, loop: loop)
    }

    private init(client: TSAClient, directory: String, store: ResultStore, signing: SigningIdentity, sessions: Sessions,
                 outbox: Outbox?, loop: any LoopExecutor) throws {
        self.client = client
        self.sessions = sessions
        self.outbox = outbox
        let current = restamping
        let relay = loop.confine(Relay<RestampFlow>())
        queue = try RestampQueue(directory: directory, restamping: { current.value.withLock { $0 } },
                                 store: store, onEvent: { event in
            relay.post { $0.flow?.finished(event) }
        }, onDamagedRecord: { file, error in
            Log.error("re-stamp queue: \(file) is unreadable and was skipped: \(error)")
        })
        relay.value.flow = self
        signerChanged(signing.signer, trustAnchor: signing.identity.trustAnchor)
        if queue.count > 0 { Log.info("re-stamp queue: \(queue.count) results wait for a TSA") }
    }

    /// What the updates are signed with (loop thread): what captures sign with, so nothing is
    /// signed with a revoked certificate; nil stops the queue signing.
    func signerChanged(_ signer: (any ClaimSigner)?, trustAnchor: Certificate?) {
        let current = signer.map { signer in
            Restamping(client: client, signer: signer, generator: Publishing.generator,
                       trustAnchors: trustAnchor.map { [$0] } ?? [])
        }
        restamping.value.withLock { $0 = current }
    }

    func stop() { queue.stop() }

    /// Loop thread: what became of a queued result.
    private func finished(_ event: RestampQueue.Event) {
        switch event {
        case .updated(let result, let time):
            Log.info("\(result.kind) \(result.name) of \(Authorizer.userName(result.uid)) "
                + "time-stamped later (\(time)): update manifest added, \(result.size) bytes")
            do { try outbox?.enqueueAgain(result, fileExtension: result.format?.fileExtension ?? "bin") } catch {
                Log.error("outbox: the time-stamped \(result.name) could not be queued again: \(error)")
            }
            sessions.announce(toOwner: result.uid, .resultUpdated, [.string(result.name), Wire.result(result, Wire.timeStamp(.stamped(time)))])
        case .dropped(let name, let uid, let reason):
            Log.warning("re-stamp queue: \(name) of \(Authorizer.userName(uid)) stays without a time-stamp: \(reason)")
        }
    }
}
