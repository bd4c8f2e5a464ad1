import C2PA
import FoundationEssentials
import LensCrypto
import LensStorage

/// Time-stamps, later, a result signed while no TSA answered: an update manifest (TimeStampUpdate)
/// whose token says the original signature existed at the TSA's time, and whose own signature is
/// stamped too. The stored file is replaced atomically (ResultStore.replace).
public struct Restamping: Sendable {
    public var client: TSAClient
    public var signer: ClaimSigner
    public var generator: ClaimGeneratorInfo
    /// The device's root, so the parent's validation record says what a verifier will find.
    public var trustAnchors: [Certificate]

    public init(client: TSAClient, signer: ClaimSigner, generator: ClaimGeneratorInfo, trustAnchors: [Certificate]) {
        self.client = client
        self.signer = signer
        self.generator = generator
        self.trustAnchors = trustAnchors
    }

    /// Why a result cannot be re-stamped, ever (it is dropped from the queue, and reported).
    public struct Impossible: Error, CustomStringConvertible {
        public var description: String
    }

    /// Adds the update to result `name` of `uid`; returns the result as it now is and the TSA's
    /// time. A result this already updated (a crash came before its queue record was removed) is
    /// returned as it is, with its update's time: never stamped twice.
    public func restamp(_ name: String, uid: UInt32, in store: ResultStore) throws -> (result: StoredResult, time: Date) {
        let stored = try store.result(name: name, uid: uid)
        guard let leaf = signer.certificateChain.first, Date() < leaf.notAfter else {
            throw Impossible(description: "the device certificate expired before a TSA answered: \(name) cannot be time-stamped any more")
        }
        let report = try Verifier(trustAnchors: trustAnchors, timeStampAnchors: client.anchors).verify(fileAt: stored.path)
        if report.manifests.first?.isUpdate == true, let time = report.signer?.timeStamp {
            return (stored, time)
        }
        guard report.state != .invalid else {
            throw Impossible(description: "\(name) does not verify (\(report.failures.map(\.code))): it is not time-stamped")
        }
        guard report.signer?.timeStamp == nil, report.manifests.first?.isUpdate != true else {
            throw Impossible(description: "\(name) is time-stamped already")
        }
        let stamper = SigningTimeStamper(client: client, required: true, signerValidity: leaf.notBefore...leaf.notAfter)
        let update = TimeStampUpdate(generator: generator, signer: signer, timeStamper: stamper)
        let splice = try StoreSplice.replacingStore(ofFileAt: stored.path) { existing in
            try update.update(store: existing, format: stored.mime, validation: report.statuses)
        }
        guard case .stamped(let time)? = stamper.outcome else {
            throw C2PAError.signing("the time-stamp of \(name) left no time")
        }
        return (try store.replace(name: name, uid: uid, range: splice.range, with: splice.bytes), time)
    }
}
