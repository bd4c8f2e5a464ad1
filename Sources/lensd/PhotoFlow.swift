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
        guard let signer = identity.signer else {
            session.failed(.enrollment(identity.problem ?? "the device has no usable identity"))
            return
        }
        let signing = PhotoSigning(signer: signer, generator: Self.generator,
                                   includeThumbnail: configuration.includeThumbnail)
        let store = store, outbox = outbox
        handedToSigning = true
        let done = done.map(LoopBound.init)
        signingWorker.submit { [weak self] in
            let stored = Result { () throws -> StoredResult in
                let signed: [UInt8]
                do { signed = try signing.sign(photo, location: fix) } catch {
                    throw LensError.imageSigningFailed("signing failed: \(error)")
                }
                return try store.store(parts: [signed], name: name, uid: uid, mime: "image/jpeg", fileExtension: "jpg")
            }
            let upload = (try? stored.get()).map { outbox?.enqueue($0, fileExtension: "jpg") ?? "disabled" }
            self?.loop.post { [weak self] in
                self?.photoStored(name: name, session: session, result: stored, upload: upload)
                done?.value()
            }
        }
    }

    fileprivate func photoStored(name: String, session: Session, result: Result<StoredResult, Error>, upload: String?) {
        defer { captureEnded() }
        switch result {
        case .success(let stored):
            Log.info("photo \(name) signed and stored for \(Authorizer.userName(stored.uid)) (\(stored.size) bytes)")
            session.emit("PhotoSigned", [.string(name), Wire.result(stored, ["upload": .string(upload ?? "disabled")])])
            if store.isLowOnSpace != conditions.storageLow { refreshConditions() }
        case .failure(let error):
            Log.error("photo \(name) failed: \(error)")
            session.failed(LensError.from(error))
        }
    }

    static let generator = ClaimGeneratorInfo(name: "lensd", version: ProjectVersion.string, operatingSystem: "Linux")
}
