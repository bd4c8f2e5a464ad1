import C2PA
import FoundationEssentials
import LensBus
import LensCamera
import LensContract
import LensCore
import LensNetwork
import LensStorage

/// A captured photo on its way out: InitialCaptureFinished, signed on the signing thread (the TSA
/// asked there too), stored, queued for upload and a later time-stamp, PhotoSigned — or Failed.
/// Both photo flows end here: the camera's photo (PhotoFlow) and a face auto-capture's chosen
/// frame (FaceFlow). The photo's ticket ends once it is stored or has failed.
final class PhotoPublisher {
    private let host: MachineHost
    private let sources: CaptureSources
    private let publishing: PublishingSetup
    private let configuration: Configuration
    private let worker: any JobQueue
    private let loop: any LoopExecutor

    init(host: MachineHost, sources: CaptureSources, publishing: PublishingSetup, configuration: Configuration,
         worker: any JobQueue, loop: any LoopExecutor) {
        self.host = host
        self.sources = sources
        self.publishing = publishing
        self.configuration = configuration
        self.worker = worker
        self.loop = loop
    }

    /// `done` runs once the photo is stored or has failed.
    func publish(_ result: Result<CapturedPhoto, Error>, ticket: CaptureMachine.Ticket, for session: Session,
                 done: (() -> Void)? = nil) {
        var handedToSigning = false
        defer {
            if !handedToSigning {
                host.endCapture(ticket)
                done?()
            }
        }
        let photo: CapturedPhoto
        switch result {
        case .success(let p): photo = p
        case .failure(let error):
            session.failed(LensError.from(error))
            return
        }
        let name = ticket.name
        session.emit(.initialCaptureFinished, [.string(name), .bytes(photo.thumbnail)])
        let fix = sources.conditions.fixToRecord(accuracy: session.maximumLocationAccuracy)
        if configuration.locationPolicy == .required && fix == nil {
            session.failed(.captureDisabled("the location fix was lost before the photo could be signed"))
            return
        }
        guard let publishing = publishing.current else {
            session.failed(.enrollment(self.publishing.signing.problem ?? "the device has no usable identity"))
            return
        }
        let photoSigning = PhotoSigning(signer: publishing.signer, generator: Publishing.generator,
                                        includeThumbnail: configuration.includeThumbnail, timeStamping: publishing.timeStamping)
        handedToSigning = true
        let uid = session.uid
        let back = loop.confine((publisher: self, session: session, done: done))
        worker.submit {
            let signed = Result { () throws -> PhotoSigning.Signed in
                do { return try photoSigning.sign(photo, location: fix) } catch let unstamped as TimeStamping.Unavailable {
                    throw unstamped
                } catch {
                    throw LensError.imageSigningFailed("signing failed: \(error)")
                }
            }
            let outcome = publishing.timeStampOutcome(of: signed.map(\.timeStamp))
            let stored = signed.flatMap { photo in
                Result { try publishing.store.store(parts: [photo.jpeg], name: name, uid: uid, mime: AssetFormat.jpeg.mediaType,
                                                    fileExtension: AssetFormat.jpeg.fileExtension) }
            }
            let upload = publishing.kept(try? stored.get(), signed: true, outcome: outcome, fileExtension: AssetFormat.jpeg.fileExtension)
            back.post { context in
                context.publisher.stored(ticket, session: context.session, result: stored, timeStamp: outcome, upload: upload)
                context.done?()
            }
        }
    }

    private func stored(_ ticket: CaptureMachine.Ticket, session: Session, result: Result<StoredResult, Error>,
                        timeStamp: TimeStamping.Outcome?, upload: String) {
        defer { host.endCapture(ticket) }
        sources.timeStampFound(timeStamp)
        switch result {
        case .success(let stored):
            Log.info("photo \(ticket.name) signed and stored for \(Authorizer.userName(stored.uid)) (\(stored.size) bytes\(Wire.timeStampNote(timeStamp)))")
            session.emit(.photoSigned, [.string(ticket.name),
                                        Wire.result(stored, Wire.timeStamp(timeStamp).merging(["upload": .string(upload)]) { $1 })])
            sources.storageMayHaveChanged()
        case .failure(let error):
            Log.error("photo \(ticket.name) failed: \(error)")
            session.failed(LensError.from(error))
        }
    }
}
