import FoundationEssentials
import Dispatch
import LensSystem
import LensContract

/// Hands each event to the AsyncStream at once and to the delegate on the caller's queue, in
/// the order lensd sent them: one serial queue targets the delegate queue, so even a concurrent
/// delegate queue sees them one at a time, in order.
final class EventDelivery: @unchecked Sendable {  // state behind `lock`: a Mutex could not take the app's non-Sendable delegate
    let events: AsyncStream<LensEvent>
    private let continuation: AsyncStream<LensEvent>.Continuation
    private let queue: DispatchQueue
    private let lock = Lock()
    private weak var currentDelegate: (any LensCameraDelegate)?
    private weak var camera: LensCamera?
    private var finished = false
    /// Control calls lensd answered with an error: its Failed signal, which follows the answer,
    /// belongs to that control.
    private var failedControls: [(control: LensControl, error: LensClientError)] = []

    init(delegate: (any LensCameraDelegate)?, queue delegateQueue: DispatchQueue) {
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        queue = DispatchQueue(label: "lensclient.delegate", target: delegateQueue)
        currentDelegate = delegate
    }

    var delegate: (any LensCameraDelegate)? {
        get { lock.withLock { currentDelegate } }
        set { lock.withLock { currentDelegate = newValue } }
    }

    /// The camera that fetches a signed photo before `didGenerateTruepic`.
    func attach(_ camera: LensCamera) {
        lock.withLock { self.camera = camera }
    }

    /// On the bus thread, as lensd's error answer to a control call arrives.
    /// Only lensd's own errors come as Failed too (not a timeout, nor the bus's refusal).
    func controlFailed(_ control: LensControl, _ error: LensClientError) {
        guard Lens1.ErrorName(rawValue: error.name) != nil else { return }
        lock.withLock { failedControls.append((control, error)) }
    }

    /// On the bus thread. Nothing follows `.disconnected`.
    func deliver(_ signalled: LensEvent) {
        let event = attributed(signalled)
        let isLast: Bool
        if case .disconnected = event { isLast = true } else { isLast = false }
        guard lock.withLock({ () -> Bool in
            defer { finished = finished || isLast }
            return !finished
        }) else { return }
        continuation.yield(event)
        if isLast { continuation.finish() }
        queue.async { self.callDelegate(with: event) }
    }

    /// A Failed with the error a control call was just answered with is that control's.
    private func attributed(_ event: LensEvent) -> LensEvent {
        guard case .failed(let error) = event else { return event }
        return lock.withLock {
            guard let index = failedControls.firstIndex(where: { $0.error == error }) else { return event }
            return .controlFailed(failedControls.remove(at: index).control, error)
        }
    }

    /// Ends the stream when the camera is closed by its owner.
    func finish() {
        lock.withLock { finished = true }
        continuation.finish()
    }

    private func callDelegate(with event: LensEvent) {
        guard let delegate else { return }
        switch event {
        case .initialCaptureFinished(let name, let thumbnail): delegate.didGenerateThumbnail(thumbnail, name: name)
        case .photoSigned(let name, let info):
            guard let camera = lock.withLock({ camera }) else { return }
            do {
                delegate.didGenerateTruepic(try camera.fetchResult(name), name: name, info: info)
            } catch {
                delegate.didFailWithError(error)
            }
        case .captureDisabled(let reasons): delegate.captureDisabled(reasons: reasons)
        case .captureEnabled: delegate.captureEnabled()
        case .failed(let error): delegate.didFailWithError(error)
        case .controlFailed(.zoom, let error): delegate.didChangeZoomFactor(nil, error: error)
        case .controlFailed(.focus, let error): delegate.didFocusOnPoint(nil, error: error)
        case .controlFailed(.camera, let error): delegate.didChangeCamera(nil, error: error)
        case .controlFailed(.flashMode, let error): delegate.didChangeFlashMode(nil, error: error)
        case .zoomFactorChanged(let factor): delegate.didChangeZoomFactor(factor, error: nil)
        case .focusedOnPoint(let point): delegate.didFocusOnPoint(point, error: nil)
        case .deviceChanged(let device): delegate.didChangeCamera(device, error: nil)
        case .flashModeChanged(let mode): delegate.didChangeFlashMode(mode, error: nil)
        case .subjectAreaChanged: delegate.subjectAreaDidChange()
        case .locationChanged(let location): delegate.didUpdateLocation(location)
        case .videoRecordingStarted: delegate.didStartRecordingVideo()
        case .videoRecordingStopped: delegate.didStopRecordingVideo()
        case .videoRecordingFailed(let error): delegate.didFailRecordingVideo(error)
        case .videoThumbnailGenerated(let name, let thumbnail, let duration):
            delegate.didGenerateVideoThumbnail(thumbnail, name: name, duration: duration)
        case .videoSigned(let name, let info): delegate.didGenerateTruepicVideo(name: name, info: info)
        case .videoUnsigned(let name, let info): delegate.didGenerateUnsignedVideo(name: name, info: info)
        case .resultUploaded(let name, let info): delegate.didUploadResult(name: name, info: info)
        case .uploadFailed(let name, let error, let message): delegate.didFailUploadingResult(name: name, error: error, message: message)
        case .resultEvicted(let name, let reason): delegate.didEvictResult(name: name, reason: reason)
        case .resultUpdated(let name, let info): delegate.didUpdateResult(name: name, info: info)
        case .faceDetected(let detection): delegate.didDetectFace(detection)
        case .candidateSelectionStarted: delegate.didStartCandidateSelection()
        case .faceAutoCaptureFinished(let name, let detection): delegate.didFinishFaceAutoCapture(name: name, detection: detection)
        case .disconnected(let error): delegate.didDisconnect(error)
        }
    }
}
