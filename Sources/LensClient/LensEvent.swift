import Foundation
import LensBus

/// One thing lensd told this camera's session, in the order it happened. Each case is one
/// signal of org.lensd.Lens1.Session (named after it), plus `disconnected`, which the client
/// itself notices. docs/lensclient.md maps each to its delegate callback.
public enum LensEvent: Sendable, Equatable {
    /// InitialCaptureFinished: the frame is taken; signing has started. A small JPEG preview.
    case initialCaptureFinished(name: String, thumbnail: Data)
    /// PhotoSigned: the signed photo is stored; `LensCamera.fetchResult(name)` hands out its bytes.
    case photoSigned(name: String, info: LensResultInfo)
    case captureDisabled(reasons: [LensDisabledReason])
    case captureEnabled
    /// Failed: a capture (or its signing or storing) failed after BeginCapture had answered.
    case failed(LensClientError)
    /// Failed, for a control change of this camera that lensd refused (the call threw the same
    /// error): the SDK's control callbacks carry it as their error.
    case controlFailed(LensControl, LensClientError)
    case zoomFactorChanged(Double)
    case focusedOnPoint(LensPoint)
    case deviceChanged(LensDevice)
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

    /// The D-Bus signal the event stands for ("Disconnected" for the client's own).
    public var signalName: String {
        switch self {
        case .initialCaptureFinished: "InitialCaptureFinished"
        case .photoSigned: "PhotoSigned"
        case .captureDisabled: "CaptureDisabled"
        case .captureEnabled: "CaptureEnabled"
        case .failed, .controlFailed: "Failed"
        case .zoomFactorChanged: "ZoomFactorChanged"
        case .focusedOnPoint: "FocusedOnPoint"
        case .deviceChanged: "DeviceChanged"
        case .flashModeChanged: "FlashModeChanged"
        case .subjectAreaChanged: "SubjectAreaChanged"
        case .locationChanged: "LocationChanged"
        case .videoRecordingStarted: "VideoRecordingStarted"
        case .videoRecordingStopped: "VideoRecordingStopped"
        case .videoRecordingFailed: "VideoRecordingFailed"
        case .videoThumbnailGenerated: "VideoThumbnailGenerated"
        case .videoSigned: "VideoSigned"
        case .videoUnsigned: "VideoUnsigned"
        case .resultUploaded: "ResultUploaded"
        case .uploadFailed: "UploadFailed"
        case .resultEvicted: "ResultEvicted"
        case .resultUpdated: "ResultUpdated"
        case .faceDetected: "FaceDetected"
        case .candidateSelectionStarted: "CandidateSelectionStarted"
        case .faceAutoCaptureFinished: "FaceAutoCaptureFinished"
        case .disconnected: "Disconnected"
        }
    }

    /// nil for signals this client does not know (a newer daemon's) or cannot read.
    init?(_ signal: SignalMessage) {
        let a = signal.arguments
        do {
            switch (signal.member, a.count) {
            case ("InitialCaptureFinished", 2):
                guard let name = a[0].stringValue, let jpeg = a[1].bytesValue else { return nil }
                self = .initialCaptureFinished(name: name, thumbnail: Data(jpeg))
            case ("PhotoSigned", 2):
                guard let name = a[0].stringValue else { return nil }
                self = .photoSigned(name: name, info: try LensResultInfo(try Fields(a[1], "PhotoSigned info")))
            case ("CaptureDisabled", 1):
                guard let reasons = a[0].stringArrayValue else { return nil }
                self = .captureDisabled(reasons: reasons.map(LensDisabledReason.init(rawValue:)))
            case ("CaptureEnabled", 0):
                self = .captureEnabled
            case ("Failed", 2):
                guard let name = a[0].stringValue, let message = a[1].stringValue else { return nil }
                self = .failed(LensClientError(name: name, message: message))
            case ("ZoomFactorChanged", 1):
                guard let factor = a[0].doubleValue else { return nil }
                self = .zoomFactorChanged(factor)
            case ("FocusedOnPoint", 2):
                guard let x = a[0].doubleValue, let y = a[1].doubleValue else { return nil }
                self = .focusedOnPoint(LensPoint(x: x, y: y))
            case ("DeviceChanged", 1):
                self = .deviceChanged(try LensDevice(try Fields(a[0], "DeviceChanged")))
            case ("FlashModeChanged", 1):
                guard let mode = a[0].stringValue.flatMap(LensFlashMode.init(rawValue:)) else { return nil }
                self = .flashModeChanged(mode)
            case ("SubjectAreaChanged", 0):
                self = .subjectAreaChanged
            case ("LocationChanged", 1):
                self = .locationChanged(try LensLocation(try Fields(a[0], "LocationChanged")))
            case ("VideoRecordingStarted", 0):
                self = .videoRecordingStarted
            case ("VideoRecordingStopped", 0):
                self = .videoRecordingStopped
            case ("VideoRecordingFailed", 2):
                guard let name = a[0].stringValue, let message = a[1].stringValue else { return nil }
                self = .videoRecordingFailed(LensClientError(name: name, message: message))
            case ("VideoThumbnailGenerated", 3):
                guard let name = a[0].stringValue, let jpeg = a[1].bytesValue, let duration = a[2].doubleValue else { return nil }
                self = .videoThumbnailGenerated(name: name, thumbnail: Data(jpeg), duration: duration)
            case ("VideoSigned", 2):
                guard let name = a[0].stringValue else { return nil }
                self = .videoSigned(name: name, info: try LensVideoInfo(try Fields(a[1], "VideoSigned info")))
            case ("VideoUnsigned", 2):
                guard let name = a[0].stringValue else { return nil }
                self = .videoUnsigned(name: name, info: try LensVideoInfo(try Fields(a[1], "VideoUnsigned info")))
            case ("ResultUploaded", 2):
                guard let name = a[0].stringValue else { return nil }
                self = .resultUploaded(name: name, info: try LensUploadInfo(try Fields(a[1], "ResultUploaded info")))
            case ("UploadFailed", 3):
                guard let name = a[0].stringValue, let error = a[1].stringValue, let message = a[2].stringValue else { return nil }
                self = .uploadFailed(name: name, error: error, message: message)
            case ("ResultEvicted", 2):
                guard let name = a[0].stringValue, let reason = a[1].stringValue else { return nil }
                self = .resultEvicted(name: name, reason: reason)
            case ("ResultUpdated", 2):
                guard let name = a[0].stringValue else { return nil }
                self = .resultUpdated(name: name, info: try LensResultInfo(try Fields(a[1], "ResultUpdated info")))
            case ("FaceDetected", 1):
                self = .faceDetected(try LensFaceDetection(try Fields(a[0], "FaceDetected")))
            case ("CandidateSelectionStarted", 0):
                self = .candidateSelectionStarted
            case ("FaceAutoCaptureFinished", 2):
                guard let name = a[0].stringValue else { return nil }
                self = .faceAutoCaptureFinished(name: name, detection: try LensFaceDetection(try Fields(a[1], "FaceAutoCaptureFinished")))
            default:
                return nil
            }
        } catch {
            return nil
        }
    }
}
