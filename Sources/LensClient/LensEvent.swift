import FoundationEssentials
import LensBus
import LensContract

/// One thing lensd told this camera's session, in the order it happened. Each case is one
/// signal of org.lensd.Lens1.Session (named after it), plus `disconnected`, which the client
/// itself notices. docs/lensclient.md maps each to its delegate callback.
public enum LensEvent: Sendable, Equatable {
    /// InitialCaptureFinished: the frame is taken; signing has started. A small JPEG preview.
    case initialCaptureFinished(name: String, thumbnail: Data)
    /// PhotoSigned: the signed photo is stored; `LensCamera.fetchResult(name)` hands out its bytes.
    case photoSigned(name: String, info: LensResultInfo)
    case captureDisabled(reasons: [LensCaptureStatus])
    case captureEnabled
    /// Failed: a capture (or its signing or storing) failed after BeginCapture had answered.
    case failed(LensClientError)
    /// Failed, for a control change of this camera that lensd refused (the call threw the same
    /// error): the SDK's control callbacks carry it as their error.
    case controlFailed(LensControl, LensClientError)
    case zoomFactorChanged(Double)
    case focusedOnPoint(LensPoint)
    case deviceChanged(LensCaptureDevice)
    case flashModeChanged(LensFlashMode)
    /// After a manual focus: the scene changed enough that the focus point may be stale.
    case subjectAreaChanged
    /// At most once a second; nil when the fix was lost.
    case locationChanged(LensLocation?)
    /// VideoRecordingStarted: StartVideoCapture's recording is running.
    case videoRecordingStarted
    /// VideoRecordingStopped: StopVideoCapture ended the recording; the thumbnail and the
    /// result follow.
    case videoRecordingStopped
    /// VideoRecordingFailed: a fault ended the recording. If frames were written, the
    /// thumbnail and the result of what was recorded follow.
    case videoRecordingFailed(LensClientError)
    /// VideoThumbnailGenerated: the recording is closed; a small JPEG of it and its length in
    /// seconds.
    case videoThumbnailGenerated(name: String, thumbnail: Data, duration: Double)
    /// VideoSigned: the signed MP4 is stored; `LensCamera.fetchResult(_:into:)` copies it.
    case videoSigned(name: String, info: LensVideoInfo)
    /// VideoUnsigned: the MP4 is stored without a manifest, for `info.reason`.
    case videoUnsigned(name: String, info: LensVideoInfo)
    /// ResultUploaded: the server in lensd's upload-url confirmed this result.
    case resultUploaded(name: String, info: LensUploadInfo)
    /// UploadFailed: the server refused the result for good (`error`: rejected, too_large,
    /// missing); it stays stored and is not sent again until `LensCamera.retryUploads`.
    case uploadFailed(name: String, error: String, message: String)
    /// ResultEvicted: lensd deleted this user's result `name` to stay within its per-user caps
    /// (`reason` names the cap); sent to every session of the user.
    case resultEvicted(name: String, reason: String)
    /// ResultUpdated: a result signed while no TSA answered was time-stamped later; its stored
    /// file changed (`info`: new size and sha256, timestamped, timestampTime). Sent to every
    /// session of the user.
    case resultUpdated(name: String, info: LensResultInfo)
    /// FaceDetected: one processed frame of the face auto-capture.
    case faceDetected(LensFaceDetection)
    /// CandidateSelectionStarted: enough good frames in a row; the candidate window runs.
    case candidateSelectionStarted
    /// FaceAutoCaptureFinished: the chosen frame; its photo `name` follows (InitialCaptureFinished, PhotoSigned).
    case faceAutoCaptureFinished(name: String, detection: LensFaceDetection)
    /// The bus connection or lensd went away; this camera's session is gone. The last event.
    case disconnected(LensClientError)

    /// The D-Bus signal the event stands for; nil for the client's own `disconnected`.
    public var signal: Lens1.Signal? {
        switch self {
        case .initialCaptureFinished: .initialCaptureFinished
        case .photoSigned: .photoSigned
        case .captureDisabled: .captureDisabled
        case .captureEnabled: .captureEnabled
        case .failed, .controlFailed: .failed
        case .zoomFactorChanged: .zoomFactorChanged
        case .focusedOnPoint: .focusedOnPoint
        case .deviceChanged: .deviceChanged
        case .flashModeChanged: .flashModeChanged
        case .subjectAreaChanged: .subjectAreaChanged
        case .locationChanged: .locationChanged
        case .videoRecordingStarted: .videoRecordingStarted
        case .videoRecordingStopped: .videoRecordingStopped
        case .videoRecordingFailed: .videoRecordingFailed
        case .videoThumbnailGenerated: .videoThumbnailGenerated
        case .videoSigned: .videoSigned
        case .videoUnsigned: .videoUnsigned
        case .resultUploaded: .resultUploaded
        case .uploadFailed: .uploadFailed
        case .resultEvicted: .resultEvicted
        case .resultUpdated: .resultUpdated
        case .faceDetected: .faceDetected
        case .candidateSelectionStarted: .candidateSelectionStarted
        case .faceAutoCaptureFinished: .faceAutoCaptureFinished
        case .disconnected: nil
        }
    }

    /// The signal's name ("Disconnected" for the client's own).
    public var signalName: String { signal?.name ?? "Disconnected" }

    /// nil for signals this client does not know (a newer daemon's) or cannot read.
    init?(_ signal: SignalMessage) {
        let a = signal.arguments
        // Types as the contract has them, or the signal is not one this client can read.
        guard let kind = Lens1.Signal(rawValue: signal.member), a.map(\.signature).joined() == kind.signature else { return nil }
        do {
            switch kind {
            case .initialCaptureFinished:
                guard let name = a[0].stringValue, let jpeg = a[1].bytesValue else { return nil }
                self = .initialCaptureFinished(name: name, thumbnail: Data(jpeg))
            case .photoSigned:
                guard let name = a[0].stringValue else { return nil }
                self = .photoSigned(name: name, info: try LensResultInfo(try Fields(a[1], "PhotoSigned info")))
            case .captureDisabled:
                guard let reasons = a[0].stringArrayValue else { return nil }
                self = .captureDisabled(reasons: reasons.map(LensCaptureStatus.init(rawValue:)))
            case .captureEnabled:
                self = .captureEnabled
            case .failed:
                guard let name = a[0].stringValue, let message = a[1].stringValue else { return nil }
                self = .failed(LensClientError(name: name, message: message))
            case .zoomFactorChanged:
                guard let factor = a[0].doubleValue else { return nil }
                self = .zoomFactorChanged(factor)
            case .focusedOnPoint:
                guard let x = a[0].doubleValue, let y = a[1].doubleValue else { return nil }
                self = .focusedOnPoint(LensPoint(x: x, y: y))
            case .deviceChanged:
                self = .deviceChanged(try LensCaptureDevice(try Fields(a[0], "DeviceChanged")))
            case .flashModeChanged:
                guard let mode = a[0].stringValue.flatMap(LensFlashMode.init(rawValue:)) else { return nil }
                self = .flashModeChanged(mode)
            case .subjectAreaChanged:
                self = .subjectAreaChanged
            case .locationChanged:
                self = .locationChanged(try LensLocation(try Fields(a[0], "LocationChanged")))
            case .videoRecordingStarted:
                self = .videoRecordingStarted
            case .videoRecordingStopped:
                self = .videoRecordingStopped
            case .videoRecordingFailed:
                guard let name = a[0].stringValue, let message = a[1].stringValue else { return nil }
                self = .videoRecordingFailed(LensClientError(name: name, message: message))
            case .videoThumbnailGenerated:
                guard let name = a[0].stringValue, let jpeg = a[1].bytesValue, let duration = a[2].doubleValue else { return nil }
                self = .videoThumbnailGenerated(name: name, thumbnail: Data(jpeg), duration: duration)
            case .videoSigned:
                guard let name = a[0].stringValue else { return nil }
                self = .videoSigned(name: name, info: try LensVideoInfo(try Fields(a[1], "VideoSigned info")))
            case .videoUnsigned:
                guard let name = a[0].stringValue else { return nil }
                self = .videoUnsigned(name: name, info: try LensVideoInfo(try Fields(a[1], "VideoUnsigned info")))
            case .resultUploaded:
                guard let name = a[0].stringValue else { return nil }
                self = .resultUploaded(name: name, info: try LensUploadInfo(try Fields(a[1], "ResultUploaded info")))
            case .uploadFailed:
                guard let name = a[0].stringValue, let error = a[1].stringValue, let message = a[2].stringValue else { return nil }
                self = .uploadFailed(name: name, error: error, message: message)
            case .resultEvicted:
                guard let name = a[0].stringValue, let reason = a[1].stringValue else { return nil }
                self = .resultEvicted(name: name, reason: reason)
            case .resultUpdated:
                guard let name = a[0].stringValue else { return nil }
                self = .resultUpdated(name: name, info: try LensResultInfo(try Fields(a[1], "ResultUpdated info")))
            case .faceDetected:
                self = .faceDetected(try LensFaceDetection(try Fields(a[0], "FaceDetected")))
            case .candidateSelectionStarted:
                self = .candidateSelectionStarted
            case .faceAutoCaptureFinished:
                guard let name = a[0].stringValue else { return nil }
                self = .faceAutoCaptureFinished(name: name, detection: try LensFaceDetection(try Fields(a[1], "FaceAutoCaptureFinished")))
            }
        } catch {
            return nil
        }
    }
}
