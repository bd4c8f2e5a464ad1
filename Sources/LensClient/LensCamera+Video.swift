import LensBus

/// Recording a video: set `setCameraMode(.video)`, claim the camera, then start and stop. The
/// events follow in this order: `.videoRecordingStarted`, at the end `.videoRecordingStopped`
/// (then `.videoRecordingFailed` if a fault ended it), `.videoThumbnailGenerated`, then `.videoSigned` or
/// `.videoUnsigned`; `fetchResult(_:into:)` copies the stored MP4.
extension LensCamera {
    /// Starts recording. Throws `.unsupported` in photo mode, `.notStarted` without the claim,
    /// `.captureDisabled` when capture is disabled now, `.busy` when already recording.
    public func startVideoCapture() throws(LensClientError) {
        _ = try sessionCall("StartVideoCapture")
    }

    /// Ends the recording; lensd then closes, stores and signs the video. Throws `.notStarted`
    /// when this session is not recording (e.g. a fault has already ended it).
    public func stopVideoCapture() throws(LensClientError) {
        _ = try sessionCall("StopVideoCapture")
    }

    public var isRecordingVideo: Bool {
        get throws(LensClientError) {
            try Reply.single([try sessionProperty("IsRecordingVideo")], "IsRecordingVideo") { $0.boolValue }
        }
    }

    /// Length and size of the recording so far; nil when this session is not recording. lensd
    /// announces no changes of it: poll (twice a second is plenty).
    public var videoRecordingProgress: LensVideoProgress? {
        get throws(LensClientError) {
            try LensVideoProgress(try Fields(try sessionProperty("VideoRecordingProgress"), "VideoRecordingProgress"))
        }
    }
}
