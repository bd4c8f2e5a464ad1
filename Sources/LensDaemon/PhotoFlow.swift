import C2PA
import Foundation
import LensBus
import LensCore

/// The photo flow, from BeginCapture to PhotoSigned.
extension LensService {
    /// BeginCapture: frame on the camera thread → InitialCaptureFinished → signing thread →
    /// stored → PhotoSigned. Failures end in the Failed signal.
    func capturePhoto(name: String, for session: Session) {
        captureStarted()
        let uid = session.uid
        rig.run(on: currentCamera, { try $0.capturePhoto() }) { [weak self] result, state in
            self?.loop.post { [weak self] in self?.photoCaptured(name: name, uid: uid, session: session, result: result, state: state) }
        }
    }

    /// `done` runs once the photo is stored or has failed (face auto-capture's state follows it).
    func photoCaptured(name: String, uid: UInt32, session: Session, result: Result<CapturedPhoto, Error>,
                       state: CameraState, done: (() -> Void)? = nil) {
        record(state, forCamera: currentCamera)
        var handedToSigning = false
        defer { if !handedToSigning { captureEnded(); done?() } }
        let photo: CapturedPhoto
        switch result {
        case .success(let p): photo = p
        case .failure(let error):
            session.failed(LensError.from(error))
            return
        }
        session.emit("InitialCaptureFinished", [.string(name), .bytes(photo.thumbnail)])
        let fix = conditions.fixToRecord(accuracy: session.maximumLocationAccuracy)
        if configuration.locationPolicy == .required && fix == nil {
            session.failed(.captureDisabled("the location fix was lost before the photo could be signed"))
            return
        }
        guard let signer else {
            session.failed(.enrollment(signingProblem ?? "the device has no usable identity"))
            return
        }
        let (timeStamping, skipped) = captureTimeStamping
        let signing = PhotoSigning(signer: signer, generator: Self.generator,
                                   includeThumbnail: configuration.includeThumbnail, timeStamping: timeStamping)
        let store = store, outbox = outbox, restamp = restamp
        handedToSigning = true
        let done = done.map(LoopBound.init)
        signingWorker.submit { [weak self] in
            // The TSA request, if any, runs here too: off the bus thread, within the signing figure.
            let signed = Result { () throws -> PhotoSigning.Signed in
                do { return try signing.sign(photo, location: fix) } catch let unstamped as TimeStamping.Unavailable {
                    throw unstamped
                } catch {
                    throw LensError.imageSigningFailed("signing failed: \(error)")
                }
            }
            let stored = signed.flatMap { photo in
                Result { try store.store(parts: [photo.jpeg], name: name, uid: uid, mime: "image/jpeg", fileExtension: "jpg") }
            }
            let timeStamp = skipped ?? Self.timeStampOutcome(of: signed.map(\.timeStamp))
            let kept = try? stored.get()
            // Queued for a later time-stamp before its owner hears of it: a crash loses nothing.
            if kept != nil { restamp?.captureSigned(name: name, uid: uid, outcome: timeStamp) }
            let upload = kept.map { outbox?.enqueue($0, fileExtension: "jpg") ?? "disabled" }
            self?.loop.post { [weak self] in
                self?.photoStored(name: name, session: session, result: stored, timeStamp: timeStamp, upload: upload)
                done?.value()
            }
        }
    }

    /// What signing found out about the TSAs, also when it failed for want of a time-stamp.
    static func timeStampOutcome(of signing: Result<TimeStamping.Outcome?, Error>) -> TimeStamping.Outcome? {
        switch signing {
        case .success(let outcome): outcome
        case .failure(let unstamped as TimeStamping.Unavailable): .unstamped(reason: unstamped.reason)
        case .failure: nil
        }
    }

    fileprivate func photoStored(name: String, session: Session, result: Result<StoredResult, Error>,
                                 timeStamp: TimeStamping.Outcome?, upload: String?) {
        defer { captureEnded() }
        if let timeStamp { timeStampWatch?.captureFound(timeStamp) }
        switch result {
        case .success(let stored):
            Log.info("photo \(name) signed and stored for \(Authorizer.userName(stored.uid)) (\(stored.size) bytes\(Wire.timeStampNote(timeStamp)))")
            session.emit("PhotoSigned", [.string(name), Wire.result(stored, Wire.timeStamp(timeStamp).merging(["upload": .string(upload ?? "disabled")]) { $1 })])
            if store.isLowOnSpace != conditions.storageLow { refreshConditions() }
        case .failure(let error):
            Log.error("photo \(name) failed: \(error)")
            session.failed(LensError.from(error))
        }
    }

    static let generator = ClaimGeneratorInfo(name: "lensd", version: ProjectVersion.string, operatingSystem: "Linux")
}
