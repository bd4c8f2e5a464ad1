import Foundation

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
    public func didChangeZoomFactor(_ factor: Double) {}
    public func didFocusOnPoint(_ point: LensPoint) {}
    public func didChangeCamera(_ device: LensDevice) {}
    public func didChangeFlashMode(_ mode: LensFlashMode) {}
    public func subjectAreaDidChange() {}
    public func didUpdateLocation(_ location: LensLocation?) {}
    public func didDisconnect(_ error: LensClientError) {}
}
