import C2PA
import FoundationEssentials
import LensBus
import LensContract
import LensCore
import LensMedia
import LensNetwork
import LensStorage
import LensSystem

/// A finished recording on its way out, with its ticket: signed in place on the signing thread
/// (or kept unsigned, saying why: it is never deleted), published and announced — to the session
/// that recorded it, or for one recovered after a crash to its owner's sessions. The ticket ends
/// once it is published or has failed.
final class VideoPublisher {
    private let host: MachineHost
    private let sessions: Sessions
    private let sources: CaptureSources
    private let publishing: PublishingSetup
    private let clock: LensClock
    private let worker: any JobQueue
    /// Where a published video's SHA-256 is taken, after it was announced.
    private let storageWorker: any JobQueue
    private let loop: any LoopExecutor

    init(host: MachineHost, sessions: Sessions, sources: CaptureSources, publishing: PublishingSetup, clock: LensClock,
         worker: any JobQueue, storageWorker: any JobQueue, loop: any LoopExecutor) {
        self.host = host
        self.sessions = sessions
        self.sources = sources
        self.publishing = publishing
        self.clock = clock
        self.worker = worker
        self.storageWorker = storageWorker
        self.loop = loop
    }

    /// `facts` nil: what the recording was made with was lost in a crash (kept unsigned).
    /// `ticket.session` nil: a recovered video, announced to its owner.
    func publish(_ video: FinalizedMP4, ticket: CaptureMachine.Ticket, uid: UInt32, facts: VideoSigning.Facts?, fix: LocationFix?,
                 session: Session?, limit: RecordingLimits.Limit? = nil) {
        let recovered = ticket.session == nil
        let name = ticket.name
        let signing = publishing.signing
        // A certificate that expired while recording would sign a manifest no validator accepts.
        let current = signing.identity.state(at: clock.wall()) == .enrolled ? publishing.current : nil
        let problem = signing.problem ?? "the device certificate expired before the recording could be signed"
        let store = publishing.store
        let back = loop.confine((publisher: self, session: session))
        worker.submit {
            let unsignedReason: String?
            var signingResult: Result<TimeStamping.Outcome?, Error> = .success(nil)
            do {
                guard let current else { throw LensError.enrollment(problem) }
                guard let facts else { throw LensError.imageSigningFailed("what the recording was made with was lost in the crash") }
                let videoSigning = VideoSigning(signer: current.signer, generator: Publishing.generator, timeStamping: current.timeStamping)
                signingResult = .success(try videoSigning.sign(video, facts: facts, location: fix))
                unsignedReason = nil
            } catch {
                signingResult = .failure(error)
                unsignedReason = LensError.from(error).message
            }
            let timeStamp = current?.timeStampOutcome(of: signingResult)
            // Kept whatever signing said, as the SDK keeps a video it cannot sign: under
            // `timestamp = required` one the TSA could not stamp is published unsigned, saying why.
            let published = Result { try store.publishRecording(name: name, uid: uid, signed: unsignedReason == nil, recovered: recovered) }
            if case .success = published { RecordingFacts.remove(besides: video.path) }
            let upload = current?.kept(try? published.get(), signed: unsignedReason == nil, outcome: timeStamp,
                                       fileExtension: AssetFormat.bmff.fileExtension) ?? "disabled"
            back.post { context in
                context.publisher.sources.timeStampFound(timeStamp)
                context.publisher.published(ticket, uid: uid, video: video, result: published, unsignedReason: unsignedReason,
                                            timeStamp: timeStamp, session: context.session, upload: upload, limit: limit)
            }
        }
    }

    private func published(_ ticket: CaptureMachine.Ticket, uid: UInt32, video: FinalizedMP4, result: Result<StoredResult, Error>,
                           unsignedReason: String?, timeStamp: TimeStamping.Outcome?, session: Session?, upload: String,
                           limit: RecordingLimits.Limit?) {
        defer { host.endCapture(ticket) }
        let name = ticket.name, recovered = ticket.session == nil
        switch result {
        case .success(let stored):
            var info: [String: BusValue] = ["duration": .double(video.duration), "frames": .uint32(UInt32(clamping: video.sampleCount)),
                                            "audio": .bool(video.audioDuration != nil), "upload": .string(upload)]
            if recovered { info["recovered"] = .bool(true) }
            if let limit { info["limit"] = .string(limit.key) }
            let owner = Authorizer.userName(stored.uid)
            let signal: Lens1.Signal
            if let unsignedReason {
                info["reason"] = .string(unsignedReason)
                Log.warning("video \(name) of \(owner) kept unsigned (\(stored.size) bytes): \(unsignedReason)")
                signal = .videoUnsigned
            } else {
                info.merge(Wire.timeStamp(timeStamp)) { $1 }
                Log.info("video \(name) signed and stored for \(owner) (\(stored.size) bytes, \(video.duration) s\(Wire.timeStampNote(timeStamp)))")
                signal = .videoSigned
            }
            let arguments: [BusValue] = [.string(name), Wire.result(stored, info)]
            if recovered { sessions.announce(toOwner: uid, signal, arguments) } else { session?.emit(signal, arguments) }
            // Its SHA-256 for ListResults, taken once it is announced: stopping never waits for a
            // whole-file hash, and listing never computes one.
            let store = publishing.store
            storageWorker.submit { _ = try? store.result(name: name, uid: uid) }
        case .failure(let error):
            // Never deleted: the file stays where it was recorded, and the next start publishes it.
            Log.error("video \(name): could not be stored (\(error)); kept for the next start to publish")
            session?.failed(LensError.from(error))
        }
    }
}
