import C2PA
import Foundation
import LensBus
import LensContract
import LensCore

/// The photo flow: BeginCapture → a frame on the camera thread → InitialCaptureFinished → signed
/// on the signing thread → stored (queued for upload and a later time-stamp) → PhotoSigned.
/// Failures end in the Failed signal. A face auto-capture's chosen frame joins at `sign`.
final class PhotoFlow {
    private unowned let service: LensService

    init(service: LensService) { self.service = service }

    /// Requires the claim and capture enabled (the session checks them); returns the photo's name.
    func capture(for session: Session) -> String {
        let name = UUID().uuidString.lowercased()
        service.transition { $0.captureStarted() }
        service.cameras.run({ try $0.capturePhoto() }) { [weak self] result, _ in
            self?.sign(result, name: name, for: session)
        }
        return name
    }

    /// A face auto-capture's chosen frame, encoded already, through the rest of the flow.
    func signChosen(_ result: Result<CapturedPhoto, Error>, name: String, for session: Session, done: @escaping () -> Void) {
        service.transition { $0.captureStarted() }
        sign(result, name: name, for: session, done: done)
    }

    /// For a capture counted in flight already. `done` runs once the photo is stored or has failed.
    private func sign(_ result: Result<CapturedPhoto, Error>, name: String, for session: Session, done: (() -> Void)? = nil) {
        var handedToSigning = false
        defer {
            if !handedToSigning {
                service.transition { $0.captureEnded() }
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
        session.emit(.initialCaptureFinished, [.string(name), .bytes(photo.thumbnail)])
        let fix = service.conditions.fixToRecord(accuracy: session.maximumLocationAccuracy)
        if service.configuration.locationPolicy == .required && fix == nil {
            session.failed(.captureDisabled("the location fix was lost before the photo could be signed"))
            return
        }
        guard let publishing = service.publishing else {
            session.failed(.enrollment(service.signing.problem ?? "the device has no usable identity"))
            return
        }
        let signing = PhotoSigning(signer: publishing.signer, generator: Publishing.generator,
                                   includeThumbnail: service.configuration.includeThumbnail,
                                   timeStamping: publishing.timeStamping)
        handedToSigning = true
        let uid = session.uid
        let back = service.loop.confine((flow: self, session: session, done: done))
        service.signingWorker.submit {
            // The TSA request, if any, runs here too: off the bus thread, within the signing figure.
            let signed = Result { () throws -> PhotoSigning.Signed in
                do { return try signing.sign(photo, location: fix) } catch let unstamped as TimeStamping.Unavailable {
                    throw unstamped
                } catch {
                    throw LensError.imageSigningFailed("signing failed: \(error)")
                }
            }
            let outcome = publishing.timeStampOutcome(of: signed.map(\.timeStamp))
            let stored = signed.flatMap { photo in
                Result { try publishing.store.store(parts: [photo.jpeg], name: name, uid: uid, mime: "image/jpeg",
                                                    fileExtension: "jpg") }
            }
            let upload = publishing.kept(try? stored.get(), signed: true, outcome: outcome, fileExtension: "jpg")
            back.post { context in
                context.flow.stored(name: name, session: context.session, result: stored, timeStamp: outcome, upload: upload)
                context.done?()
            }
        }
    }

    private func stored(name: String, session: Session, result: Result<StoredResult, Error>,
                        timeStamp: TimeStamping.Outcome?, upload: String) {
        defer { service.transition { $0.captureEnded() } }
        service.timeStampFound(timeStamp)
        switch result {
        case .success(let stored):
            Log.info("photo \(name) signed and stored for \(Authorizer.userName(stored.uid)) (\(stored.size) bytes\(Wire.timeStampNote(timeStamp)))")
            session.emit(.photoSigned, [.string(name), Wire.result(stored, Wire.timeStamp(timeStamp).merging(["upload": .string(upload)]) { $1 })])
            service.storageMayHaveChanged()
        case .failure(let error):
            Log.error("photo \(name) failed: \(error)")
            session.failed(LensError.from(error))
        }
    }
}
