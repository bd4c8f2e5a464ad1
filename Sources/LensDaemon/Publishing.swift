import C2PA
import FoundationEssentials
import LensBus
import LensCore
import LensNetwork
import LensStorage

/// What signing a capture takes from the loop, gathered when the capture is handed to the
/// signing thread, and what happens there once it is stored: queued for a later time-stamp when
/// no TSA stamped it, and for upload.
struct Publishing: Sendable {
    let signer: any ClaimSigner
    let timeStamping: TimeStamping?
    /// The outcome to report when the capture does not ask a TSA at all.
    let skipped: TimeStamping.Outcome?
    let store: ResultStore
    let outbox: Outbox?
    let restampQueue: RestampQueue?

    static let generator = ClaimGeneratorInfo(name: "lensd", version: ProjectVersion.string, operatingSystem: "Linux")

    /// What signing found out about the TSAs, also when it failed for want of a time-stamp.
    func timeStampOutcome(of signing: Result<TimeStamping.Outcome?, Error>) -> TimeStamping.Outcome? {
        if let skipped { return skipped }
        switch signing {
        case .success(let outcome): return outcome
        case .failure(let unstamped as TimeStamping.Unavailable): return .unstamped(reason: unstamped.reason)
        case .failure: return nil
        }
    }

    /// Signing thread, before the owner hears of the result: a signed result no TSA stamped is
    /// queued for a later time-stamp (a crash then loses nothing), and every signed result for
    /// upload — unsigned ones stay local, as the server is for evidence a verifier can check.
    /// Returns PhotoSigned's and VideoSigned's `upload`.
    func kept(_ stored: StoredResult?, signed: Bool, outcome: TimeStamping.Outcome?, fileExtension: String) -> String {
        guard let stored, signed else { return "disabled" }
        switch outcome {
        case .unstamped?:
            do { try restampQueue?.enqueue(name: stored.name, uid: stored.uid) } catch {
                Log.error("re-stamp queue: \(stored.name) could not be queued and will stay without a time-stamp: \(error)")
            }
        case .stamped?: restampQueue?.tsaAnswered()
        case nil: break
        }
        guard let outbox else { return "disabled" }
        do {
            try outbox.enqueue(stored, fileExtension: fileExtension)
            return "queued"
        } catch {
            Log.error("outbox: \(stored.name) could not be queued and will not be sent: \(error)")
            return "disabled"
        }
    }
}

/// Where captures are published now: what `Publishing` a capture handed to the signing thread
/// takes, from the identity's signer, the TSA settings, the store, the outbox and the re-stamp queue.
struct PublishingSetup {
    let signing: SigningIdentity
    let store: ResultStore
    let timeStamping: TimeStamping?
    let outbox: Outbox?
    let restampQueue: RestampQueue?

    /// nil when nothing may sign. While the re-stamp queue waits for a TSA that did not answer, a
    /// capture does not wait too (up to tsa-timeout per TSA): it is signed at once and queued with the others.
    var current: Publishing? {
        guard let signer = signing.signer else { return nil }
        let waiting = restampQueue?.isWaitingForTSA == true
        return Publishing(signer: signer, timeStamping: waiting ? nil : timeStamping,
                          skipped: waiting ? .unstamped(reason: "the last request went unanswered; queued until a TSA answers") : nil,
                          store: store, outbox: outbox, restampQueue: restampQueue)
    }
}
