import FoundationEssentials
import Dispatch

/// Receives a LensCamera's events, one call per lensd signal, on the DispatchQueue given to
/// `LensCamera.init`, in the order lensd sent them. The names are the mobile SDK's where a
/// callback means the same thing (table in docs/lensclient.md). Every method has an empty
/// default, so a delegate implements only what it needs.
///
/// The methods are not isolated to an actor: a `@MainActor` type that passes `.main` as the
/// delegate queue implements them `nonisolated` and uses `MainActor.assumeIsolated`.
public protocol LensCameraDelegate: AnyObject {
    /// InitialCaptureFinished: the frame is taken; a small JPEG to show while signing runs.
    func didGenerateThumbnail(_ thumbnail: Data, name: String)
    /// PhotoSigned: the signed photo's exact bytes (fetched with FetchResult before this call;
    /// if that fails, `didFailWithError` comes instead).
    func didGenerateTruepic(_ photo: Data, name: String, info: LensResultInfo)
    /// CaptureDisabled: BeginCapture would fail now, for these reasons.
    func captureDisabled(reasons: [LensDisabledReason])
    /// CaptureEnabled: every reason is gone.
    func captureEnabled()
    /// Failed: a capture failed after BeginCapture had answered.
    func didFailWithError(_ error: LensClientError)
    /// The control callbacks, SDK style `(value?, error?)`: the new value (ZoomFactorChanged,
    /// FocusedOnPoint, DeviceChanged, FlashModeChanged), or nil and the error lensd refused the
    /// change with (its Failed signal). Their defaults call the value-only forms below, so a
    /// delegate written for those keeps working; one that wants errors implements these.
    func didChangeZoomFactor(_ factor: Double?, error: LensClientError?)
    func didFocusOnPoint(_ point: LensPoint?, error: LensClientError?)
    func didChangeCamera(_ device: LensDevice?, error: LensClientError?)
    func didChangeFlashMode(_ mode: LensFlashMode?, error: LensClientError?)
    /// ZoomFactorChanged
    func didChangeZoomFactor(_ factor: Double)
    /// FocusedOnPoint: the point the camera actually used.
    func didFocusOnPoint(_ point: LensPoint)
    /// DeviceChanged: ChangeCamera switched to this camera.
    func didChangeCamera(_ device: LensDevice)
    /// FlashModeChanged
    func didChangeFlashMode(_ mode: LensFlashMode)
    /// SubjectAreaChanged: the scene moved since the last manual focus.
    func subjectAreaDidChange()
    /// LocationChanged: a new fix, or nil when it was lost.
    func didUpdateLocation(_ location: LensLocation?)
    /// VideoRecordingStarted: the recording StartVideoCapture asked for is running.
    func didStartRecordingVideo()
    /// VideoRecordingStopped: frames stopped (StopVideoCapture, a limit, or a fault, whose
    /// didFailRecordingVideo follows); thumbnail and result follow when frames were written.
    func didStopRecordingVideo()
    /// VideoRecordingFailed: a fault ended the recording; if frames were written, the
    /// thumbnail and the result of what was recorded follow.
    func didFailRecordingVideo(_ error: LensClientError)
    /// VideoThumbnailGenerated: a small JPEG of the closed recording and its length in seconds.
    func didGenerateVideoThumbnail(_ thumbnail: Data, name: String, duration: Double)
    /// VideoSigned: the signed MP4 is stored. Not fetched for you (a video can be hundreds of
    /// MB): copy it where it belongs with `LensCamera.fetchResult(_:into:)`.
    func didGenerateTruepicVideo(name: String, info: LensVideoInfo)
    /// VideoUnsigned: the MP4 is stored but lensd could not sign it (`info.reason`).
    func didGenerateUnsignedVideo(name: String, info: LensVideoInfo)
    /// ResultUploaded: the server in lensd's upload-url confirmed the result (the SDK's
    /// background upload completion).
    func didUploadResult(name: String, info: LensUploadInfo)
    /// UploadFailed: the server refused the result for good; it stays stored.
    func didFailUploadingResult(name: String, error: String, message: String)
    /// ResultEvicted: lensd deleted this user's result `name` at its per-user caps (no SDK
    /// counterpart: the SDK keeps no results).
    func didEvictResult(name: String, reason: String)
    /// ResultUpdated: a result signed offline was time-stamped later and its file replaced
    /// (`info.timestampTime`); fetch it again for the new bytes (no SDK counterpart).
    func didUpdateResult(name: String, info: LensResultInfo)
    /// FaceDetected: a processed frame of the face auto-capture; show `detection.instruction`'s
    /// `localizedText` (the component's detection callback).
    func didDetectFace(_ detection: LensFaceDetection)
    /// CandidateSelectionStarted: the candidate window runs.
    func didStartCandidateSelection()
    /// FaceAutoCaptureFinished: the selfie is chosen; didGenerateThumbnail and didGenerateTruepic
    /// follow with `name`.
    func didFinishFaceAutoCapture(name: String, detection: LensFaceDetection)
    /// The connection to lensd ended (no SDK counterpart: on Linux the daemon can restart);
    /// create a new LensCamera to go on.
    func didDisconnect(_ error: LensClientError)
}

extension LensCameraDelegate {
    public func didGenerateThumbnail(_ thumbnail: Data, name: String) {}
    public func didGenerateTruepic(_ photo: Data, name: String, info: LensResultInfo) {}
    public func captureDisabled(reasons: [LensDisabledReason]) {}
    public func captureEnabled() {}
    public func didFailWithError(_ error: LensClientError) {}
    public func didChangeZoomFactor(_ factor: Double?, error: LensClientError?) { if let factor { didChangeZoomFactor(factor) } }
    public func didFocusOnPoint(_ point: LensPoint?, error: LensClientError?) { if let point { didFocusOnPoint(point) } }
    public func didChangeCamera(_ device: LensDevice?, error: LensClientError?) { if let device { didChangeCamera(device) } }
    public func didChangeFlashMode(_ mode: LensFlashMode?, error: LensClientError?) { if let mode { didChangeFlashMode(mode) } }
    public func didChangeZoomFactor(_ factor: Double) {}
    public func didFocusOnPoint(_ point: LensPoint) {}
    public func didChangeCamera(_ device: LensDevice) {}
    public func didChangeFlashMode(_ mode: LensFlashMode) {}
    public func subjectAreaDidChange() {}
    public func didUpdateLocation(_ location: LensLocation?) {}
    public func didStartRecordingVideo() {}
    public func didStopRecordingVideo() {}
    public func didFailRecordingVideo(_ error: LensClientError) {}
    public func didGenerateVideoThumbnail(_ thumbnail: Data, name: String, duration: Double) {}
    public func didGenerateTruepicVideo(name: String, info: LensVideoInfo) {}
    public func didGenerateUnsignedVideo(name: String, info: LensVideoInfo) {}
    public func didUploadResult(name: String, info: LensUploadInfo) {}
    public func didFailUploadingResult(name: String, error: String, message: String) {}
    public func didEvictResult(name: String, reason: String) {}
    public func didUpdateResult(name: String, info: LensResultInfo) {}
    public func didDetectFace(_ detection: LensFaceDetection) {}
    public func didStartCandidateSelection() {}
    public func didFinishFaceAutoCapture(name: String, detection: LensFaceDetection) {}
    public func didDisconnect(_ error: LensClientError) {}
}
