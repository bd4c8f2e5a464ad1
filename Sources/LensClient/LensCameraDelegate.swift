import FoundationEssentials
import Dispatch

/// The SDK's `LensCameraDelegate`, by the SDK's own names and argument labels, with Linux types
/// where UIKit's cannot exist: JPEG `Data` for `UIImage`, `Double` for `CGFloat`, `LensPoint`
/// (normalized frame coordinates) for `CGPoint`, and a file `URL` for the videos LensClient copies
/// out of lensd (`LensCamera.videoDirectory`). Calls arrive on the DispatchQueue given to
/// `LensCamera.init` (or `configureSession`), one per lensd signal, in the order lensd sent them.
///
/// Every method has a default. The SDK's guide marks five required, but the seeds spell three of
/// them two ways (the guide's `lensCameraDidFinishInitialCapture(_:_:)` is the sample app's
/// `lensCameraDidGeneratePhotoThumbnail(_:image:)`, and so on): a delegate implements either
/// spelling, and the default of the first calls the second, so each event reaches it once.
///
/// The `did…` methods after the SDK's are lensd's own: each carries what the SDK's does not (the
/// result's info, the fix, uploads, face auto-capture, the daemon going away). Their defaults call
/// the SDK's where there is one. docs/lensclient.md maps every method to its D-Bus signal.
///
/// The methods are not isolated to an actor: a `@MainActor` type that passes `.main` as the
/// delegate queue implements them `nonisolated` and uses `MainActor.assumeIsolated`.
public protocol LensCameraDelegate: AnyObject {
    // MARK: The SDK's required callbacks

    /// Failed: a capture (or its signing or storing) failed after beginCapture had answered.
    func lensCameraDidFailWithError(_ error: LensCameraError)
    /// The same, as the guide's "Handling Errors" section spells it.
    func lensCameraFailedWithError(_ error: LensCameraError)
    /// InitialCaptureFinished: the frame is taken; a small JPEG, neither signed nor claimed.
    func lensCameraDidFinishInitialCapture(_ imageName: String, _ image: Data)
    /// The same, as the sample app spells it.
    func lensCameraDidGeneratePhotoThumbnail(_ imageName: String, image: Data)
    /// PhotoSigned: the signed photo's exact bytes, fetched before this call (a failed fetch
    /// comes as `lensCameraDidFailWithError` instead).
    func lensCameraDidGenerateTruepic(_ imageName: String, _ truepic: Data)
    /// The same, as the sample app spells it.
    func lensCameraDidGenerateTruepic(_ imageName: String, image: Data)
    /// CaptureDisabled: beginCapture would fail now, for these reasons.
    func lensCameraDidDisableCapture(for reasons: Set<LensCaptureStatus>)
    /// CaptureEnabled: every reason is gone.
    func lensCameraDidEnableCapture()

    // MARK: The SDK's optional callbacks

    /// VideoRecordingStarted.
    func lensCameraDidStartRecordingVideo()
    /// VideoRecordingStopped: frames stopped, whatever stopped them (a fault's
    /// `lensCameraVideoRecordingFailed` follows).
    func lensCameraDidStopRecordingVideo()
    /// VideoRecordingFailed (the sample app's): a fault ended the recording; a thumbnail and the
    /// video of what was recorded follow when frames were written.
    func lensCameraVideoRecordingFailed(error: Error?)
    /// VideoThumbnailGenerated, as the SDK's guide spells it ("Thumnail"): `fileName` is the video's
    /// name, `duration` its length in seconds.
    func lensCameraDidGenerateVideoThumnail(fileName: String, image: Data, duration: TimeInterval?)
    /// The same, as the sample app spells it.
    func lensCameraDidGenerateVideoThumbnail(fileName: String, image: Data, duration: TimeInterval?)
    /// VideoSigned: the signed MP4, copied to `url` in `LensCamera.videoDirectory` (the file is
    /// the app's from then on). Not called when `videoDirectory` is nil.
    func lensCameraDidGenerateTruepicVideo(_ url: URL)
    /// VideoUnsigned: the MP4 lensd could not sign, copied as above.
    func lensCameraDidGenerateUnsignedVideo(_ url: URL)
    /// ZoomFactorChanged, or nil and the error lensd refused a zoom with.
    func lensCameraChangedZoomFactor(_ zoomFactor: Double?, error: Error?)
    /// The same, as the guide's "Zoom" section spells it.
    func lensCameraDidChangeZoomLevel(_ zoom: Double?, error: Error?)
    /// FocusedOnPoint: the point the camera actually used (which may not be the one asked
    /// for, see `LensFocusResult`), or nil and `.setFocusFailed`/`.invalidArgument`.
    func lensCameraDidFocusOnPoint(_ point: LensPoint?, error: Error?)
    /// DeviceChanged: changeCamera switched to this camera, or nil and why not.
    func lensCameraDidChangeTo(_ device: LensCaptureDevice?, error: Error?)
    /// FlashModeChanged, or nil and why not.
    func lensCameraDidSetFlashMode(_ mode: LensCaptureDevice.FlashMode?, error: Error?)
    /// SubjectAreaChanged: the scene moved since the last manual focus.
    func lensCameraSubjectAreaDidChange()

    // MARK: lensd's additions

    /// PhotoSigned with lensd's info (size, sha256, time-stamp, upload). Default: the SDK's
    /// `lensCameraDidGenerateTruepic(_:_:)`.
    func didGenerateTruepic(_ photo: Data, name: String, info: LensResultInfo)
    /// VideoSigned with lensd's info (`info.fileURL`: the copy, nil without `videoDirectory`).
    /// Default: `lensCameraDidGenerateTruepicVideo(_:)` with the copy.
    func didGenerateTruepicVideo(name: String, info: LensVideoInfo)
    /// VideoUnsigned with lensd's info (`info.reason`). Default: `lensCameraDidGenerateUnsignedVideo(_:)`.
    func didGenerateUnsignedVideo(name: String, info: LensVideoInfo)
    /// LocationChanged: a new fix, or nil when it was lost.
    func didUpdateLocation(_ location: LensLocation?)
    /// ResultUploaded: the server in lensd's upload-url confirmed the result (the SDK's
    /// background upload completion).
    func didUploadResult(name: String, info: LensUploadInfo)
    /// UploadFailed: the server refused the result for good; it stays stored.
    func didFailUploadingResult(name: String, error: String, message: String)
    /// ResultEvicted: lensd deleted this user's result `name` at its per-user caps.
    func didEvictResult(name: String, reason: String)
    /// ResultUpdated: a result signed offline was time-stamped later and its file replaced
    /// (`info.timestampTime`); fetch it again for the new bytes.
    func didUpdateResult(name: String, info: LensResultInfo)
    /// FaceDetected: a processed frame of the face auto-capture; show `detection.instruction`'s
    /// `localizedText` (the face component's detection callback).
    func didDetectFace(_ detection: LensFaceDetection)
    /// CandidateSelectionStarted: the candidate window runs.
    func didStartCandidateSelection()
    /// FaceAutoCaptureFinished: the selfie is chosen; its thumbnail and signed photo follow
    /// with `name`.
    func didFinishFaceAutoCapture(name: String, detection: LensFaceDetection)
    /// The connection to lensd ended (on Linux the daemon can restart); create a new LensCamera.
    func didDisconnect(_ error: LensClientError)
}

extension LensCameraDelegate {
    public func lensCameraDidFailWithError(_ error: LensCameraError) { lensCameraFailedWithError(error) }
    public func lensCameraFailedWithError(_ error: LensCameraError) {}
    public func lensCameraDidFinishInitialCapture(_ imageName: String, _ image: Data) {
        lensCameraDidGeneratePhotoThumbnail(imageName, image: image)
    }
    public func lensCameraDidGeneratePhotoThumbnail(_ imageName: String, image: Data) {}
    public func lensCameraDidGenerateTruepic(_ imageName: String, _ truepic: Data) { lensCameraDidGenerateTruepic(imageName, image: truepic) }
    public func lensCameraDidGenerateTruepic(_ imageName: String, image: Data) {}
    public func lensCameraDidDisableCapture(for reasons: Set<LensCaptureStatus>) {}
    public func lensCameraDidEnableCapture() {}
    public func lensCameraDidStartRecordingVideo() {}
    public func lensCameraDidStopRecordingVideo() {}
    public func lensCameraVideoRecordingFailed(error: Error?) {}
    public func lensCameraDidGenerateVideoThumnail(fileName: String, image: Data, duration: TimeInterval?) {
        lensCameraDidGenerateVideoThumbnail(fileName: fileName, image: image, duration: duration)
    }
    public func lensCameraDidGenerateVideoThumbnail(fileName: String, image: Data, duration: TimeInterval?) {}
    public func lensCameraDidGenerateTruepicVideo(_ url: URL) {}
    public func lensCameraDidGenerateUnsignedVideo(_ url: URL) {}
    public func lensCameraChangedZoomFactor(_ zoomFactor: Double?, error: Error?) { lensCameraDidChangeZoomLevel(zoomFactor, error: error) }
    public func lensCameraDidChangeZoomLevel(_ zoom: Double?, error: Error?) {}
    public func lensCameraDidFocusOnPoint(_ point: LensPoint?, error: Error?) {}
    public func lensCameraDidChangeTo(_ device: LensCaptureDevice?, error: Error?) {}
    public func lensCameraDidSetFlashMode(_ mode: LensCaptureDevice.FlashMode?, error: Error?) {}
    public func lensCameraSubjectAreaDidChange() {}

    public func didGenerateTruepic(_ photo: Data, name: String, info: LensResultInfo) { lensCameraDidGenerateTruepic(name, photo) }
    public func didGenerateTruepicVideo(name: String, info: LensVideoInfo) {
        if let url = info.fileURL { lensCameraDidGenerateTruepicVideo(url) }
    }
    public func didGenerateUnsignedVideo(name: String, info: LensVideoInfo) {
        if let url = info.fileURL { lensCameraDidGenerateUnsignedVideo(url) }
    }
    public func didUpdateLocation(_ location: LensLocation?) {}
    public func didUploadResult(name: String, info: LensUploadInfo) {}
    public func didFailUploadingResult(name: String, error: String, message: String) {}
    public func didEvictResult(name: String, reason: String) {}
    public func didUpdateResult(name: String, info: LensResultInfo) {}
    public func didDetectFace(_ detection: LensFaceDetection) {}
    public func didStartCandidateSelection() {}
    public func didFinishFaceAutoCapture(name: String, detection: LensFaceDetection) {}
    public func didDisconnect(_ error: LensClientError) {}
}
