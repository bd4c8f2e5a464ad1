import C2PA
import Foundation
import LensBus
import LensContract
import LensCore
import LensCrypto
import Synchronization

/// `timestamp = when-online`: captures no TSA stamped are queued (RestampQueue) and time-stamped
/// by an update manifest once one answers; the owner then gets ResultUpdated, and the outbox
/// sends the new file again.
final class RestampFlow {
    let queue: RestampQueue
    private unowned let service: LensService
    /// Replaced on the loop thread when the identity changes; read by the queue's thread.
    private let restamping = CurrentRestamping()

    final class CurrentRestamping: Sendable {
        let value = Mutex<Restamping?>(nil)
    }

    static func make(_ configuration: Configuration, stateDirectory: URL, service: LensService) throws -> RestampFlow? {
        guard let timeStamping = configuration.timeStamping, timeStamping.policy == .whenOnline else { return nil }
        return try RestampFlow(client: timeStamping.client, directory: stateDirectory.appendingPathComponent("restamp").path,
                               service: service)
    }

    private init(client: TSAClient, directory: String, service: LensService) throws {
        self.service = service
        let current = restamping
        let back = service.loop.confine(service)
        queue = try RestampQueue(directory: directory, restamping: { current.value.withLock { $0 } },
                                 store: service.store, onEvent: { event in
            back.post { service in service.restamp?.finished(event) }
        }, onDamagedRecord: { file, error in
            Log.error("re-stamp queue: \(file) is unreadable and was skipped: \(error)")
        })
        signerChanged(service.signing.signer, trustAnchor: service.signing.identity.trustAnchor, client: client)
        if queue.count > 0 { Log.info("re-stamp queue: \(queue.count) results wait for a TSA") }
    }

    /// What the updates are signed with (loop thread): LensService.signer, so nothing is signed
    /// with a revoked certificate; nil stops the queue signing.
    func signerChanged(_ signer: (any ClaimSigner)?, trustAnchor: Certificate?, client: TSAClient) {
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
            Log.info("\(result.mime.hasPrefix("video/") ? "video" : "photo") \(result.name) of \(Authorizer.userName(result.uid)) "
                + "time-stamped later (\(time)): update manifest added, \(result.size) bytes")
            let fileExtension = result.mime.hasPrefix("video/") ? "mp4" : "jpg"
            do { try service.outbox?.outbox.enqueueAgain(result, fileExtension: fileExtension) } catch {
                Log.error("outbox: the time-stamped \(result.name) could not be queued again: \(error)")
            }
            service.announcements.announce(toOwner: result.uid, signal: .resultUpdated,
                     arguments: [.string(result.name), Wire.result(result, Wire.timeStamp(.stamped(time)))])
        case .dropped(let name, let uid, let reason):
            Log.warning("re-stamp queue: \(name) of \(Authorizer.userName(uid)) stays without a time-stamp: \(reason)")
        }
    }
}
