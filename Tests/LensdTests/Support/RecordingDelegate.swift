import Foundation
import LensClient
import LensTestSupport
import Synchronization
import XCTest

/// A LensCameraDelegate that records every call in order, and whether each ran on its queue.
final class RecordingDelegate: LensCameraDelegate, Sendable {
    enum Call: Equatable {
        case thumbnail(name: String, bytes: Int)
        case truepic(name: String, photo: Data, info: LensResultInfo)
        case captureDisabled(Set<LensCaptureStatus>)
        case captureEnabled
        case failed(LensClientError)
        case zoom(Double)
        case focus(LensPoint)
        case camera(LensCaptureDevice)
        case flash(LensFlashMode)
        /// A control callback's error argument (its value nil).
        case controlFailed(LensControl, LensClientError)
        case subjectArea
        case location(LensLocation?)
        case videoStarted
        case videoStopped
        case videoFailed(LensClientError)
        case videoThumbnail(name: String, bytes: Int, duration: Double)
        case videoSigned(name: String, info: LensVideoInfo)
        case videoUnsigned(name: String, info: LensVideoInfo)
        case uploaded(name: String, info: LensUploadInfo)
        case uploadFailed(name: String, error: String, message: String)
        case faceDetected(LensFaceDetection)
        case candidateSelection
        case faceFinished(name: String, detection: LensFaceDetection)
        case disconnected(LensClientError)
    }

    let queue = DispatchQueue(label: "lensd-tests.delegate")
    private let key = DispatchSpecificKey<Bool>()
    private let recorded = Mutex<(calls: [Call], offQueue: Int)>(([], 0))

    init() { queue.setSpecific(key: key, value: true) }

    var calls: [Call] { recorded.withLock { $0.calls } }
    /// Calls that did not run on `queue`: must stay 0.
    var offQueue: Int { recorded.withLock { $0.offQueue } }

    /// Polls until a call matches, skipping the first `skipping` calls; returns it.
    @discardableResult
    func wait(for what: String, skipping: Int = 0, timeout: TimeInterval = 20, _ match: (Call) -> Bool) throws -> Call {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let call = calls.dropFirst(skipping).first(where: match) { return call }
            usleep(10_000)
        }
        throw TestToolError("no \(what) within \(timeout) s; calls: \(calls.map(\.kind))")
    }

    /// A control callback: its value, or its error (a value and an error together is a defect).
    private func record(_ value: Call?, _ error: Error?, _ control: LensControl) {
        switch (value, error) {
        case (let value?, nil): record(value)
        case (nil, let error as LensClientError): record(.controlFailed(control, error))
        default: XCTFail("control callback with value \(String(describing: value)) and error \(String(describing: error))")
        }
    }

    private func record(_ call: Call) {
        let onQueue = DispatchQueue.getSpecific(key: key) == true
        recorded.withLock {
            $0.calls.append(call)
            if !onQueue { $0.offQueue += 1 }
        }
    }

    func lensCameraDidFinishInitialCapture(_ imageName: String, _ image: Data) { record(.thumbnail(name: imageName, bytes: image.count)) }
    func didGenerateTruepic(_ photo: Data, name: String, info: LensResultInfo) { record(.truepic(name: name, photo: photo, info: info)) }
    func lensCameraDidDisableCapture(for reasons: Set<LensCaptureStatus>) { record(.captureDisabled(reasons)) }
    func lensCameraDidEnableCapture() { record(.captureEnabled) }
    func lensCameraDidFailWithError(_ error: LensCameraError) { record(.failed(error)) }
    func lensCameraChangedZoomFactor(_ zoomFactor: Double?, error: Error?) { record(zoomFactor.map { .zoom($0) }, error, .zoom) }
    func lensCameraDidFocusOnPoint(_ point: LensPoint?, error: Error?) { record(point.map { .focus($0) }, error, .focus) }
    func lensCameraDidChangeTo(_ device: LensCaptureDevice?, error: Error?) { record(device.map { .camera($0) }, error, .camera) }
    func lensCameraDidSetFlashMode(_ mode: LensCaptureDevice.FlashMode?, error: Error?) { record(mode.map { .flash($0) }, error, .flashMode) }
    func lensCameraSubjectAreaDidChange() { record(.subjectArea) }
    func didUpdateLocation(_ location: LensLocation?) { record(.location(location)) }
    func lensCameraDidStartRecordingVideo() { record(.videoStarted) }
    func lensCameraDidStopRecordingVideo() { record(.videoStopped) }
    func lensCameraVideoRecordingFailed(error: Error?) {
        guard let error = error as? LensClientError else { return XCTFail("VideoRecordingFailed without lensd's error: \(String(describing: error))") }
        record(.videoFailed(error))
    }
    func lensCameraDidGenerateVideoThumnail(fileName: String, image: Data, duration: TimeInterval?) {
        record(.videoThumbnail(name: fileName, bytes: image.count, duration: duration ?? -1))
    }
    func didGenerateTruepicVideo(name: String, info: LensVideoInfo) { record(.videoSigned(name: name, info: info)) }
    func didGenerateUnsignedVideo(name: String, info: LensVideoInfo) { record(.videoUnsigned(name: name, info: info)) }
    func didUploadResult(name: String, info: LensUploadInfo) { record(.uploaded(name: name, info: info)) }
    func didFailUploadingResult(name: String, error: String, message: String) {
        record(.uploadFailed(name: name, error: error, message: message))
    }
    func didDetectFace(_ detection: LensFaceDetection) { record(.faceDetected(detection)) }
    func didStartCandidateSelection() { record(.candidateSelection) }
    func didFinishFaceAutoCapture(name: String, detection: LensFaceDetection) { record(.faceFinished(name: name, detection: detection)) }
    func didDisconnect(_ error: LensClientError) { record(.disconnected(error)) }
}

extension RecordingDelegate.Call {
    /// The D-Bus signal behind the call, to compare with the event stream.
    var kind: String {
        switch self {
        case .thumbnail: "InitialCaptureFinished"
        case .truepic: "PhotoSigned"
        case .captureDisabled: "CaptureDisabled"
        case .captureEnabled: "CaptureEnabled"
        case .failed, .controlFailed: "Failed"
        case .zoom: "ZoomFactorChanged"
        case .focus: "FocusedOnPoint"
        case .camera: "DeviceChanged"
        case .flash: "FlashModeChanged"
        case .subjectArea: "SubjectAreaChanged"
        case .location: "LocationChanged"
        case .videoStarted: "VideoRecordingStarted"
        case .videoStopped: "VideoRecordingStopped"
        case .videoFailed: "VideoRecordingFailed"
        case .videoThumbnail: "VideoThumbnailGenerated"
        case .videoSigned: "VideoSigned"
        case .uploaded: "ResultUploaded"
        case .uploadFailed: "UploadFailed"
        case .videoUnsigned: "VideoUnsigned"
        case .faceDetected: "FaceDetected"
        case .candidateSelection: "CandidateSelectionStarted"
        case .faceFinished: "FaceAutoCaptureFinished"
        case .disconnected: "Disconnected"
        }
    }
}

/// Everything a LensCamera's `events` stream yields, collected by a task.
final class EventRecorder: Sendable {
    private let events = Mutex<[LensEvent]>([])

    init(_ stream: AsyncStream<LensEvent>) {
        Task { [self] in
            for await event in stream { events.withLock { $0.append(event) } }
        }
    }

    var all: [LensEvent] { events.withLock { $0 } }

    /// The signal names, in order.
    var kinds: [String] { all.map(\.signalName) }

    /// The signal names once at least `count` events have arrived (the consuming task may
    /// trail the delegate a little), or whatever came within 5 s.
    func kinds(atLeast count: Int) -> [String] {
        let deadline = Date().addingTimeInterval(5)
        while all.count < count, Date() < deadline { usleep(10_000) }
        return kinds
    }
}
