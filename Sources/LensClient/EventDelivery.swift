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
    /// Serial, targeting the delegate's queue; replaced by `configure` (under `lock`).
    private var queue: DispatchQueue
    private let lock = Lock()
    private weak var currentDelegate: (any LensCameraDelegate)?
    private weak var camera: LensCamera?
    private var finished = false
    /// For a camera made to hold them (`sharedInstance`), the events that came while no delegate
    /// had been set yet: the first delegate gets them. Otherwise, and from then on, nil.
    private var undelivered: [LensEvent]?
    /// Control calls lensd answered with an error: its Failed signal, which follows the answer,
    /// belongs to that control.
    private var failedControls: [(control: LensControl, error: LensClientError)] = []

    init(delegate: (any LensCameraDelegate)?, queue delegateQueue: DispatchQueue, holdingEvents: Bool) {
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        queue = DispatchQueue(label: "lensclient.delegate", target: delegateQueue)
        currentDelegate = delegate
        if delegate == nil && holdingEvents { undelivered = [] }
    }

    var delegate: (any LensCameraDelegate)? {
        get { lock.withLock { currentDelegate } }
        set { lock.withLock { adopt(newValue) } }
    }

    /// A new delegate and queue: calls already queued still run on the old queue, in order, before
    /// any on the new one, which waits suspended until the old one has run them.
    func configure(delegate: any LensCameraDelegate, queue delegateQueue: DispatchQueue) {
        lock.withLock {
            let next = DispatchQueue(label: "lensclient.delegate", target: delegateQueue)
            next.suspend()
            queue.async { next.resume() }
            queue = next
            adopt(delegate)
        }
    }

    /// Under `lock`: the first delegate also gets the events that waited for one.
    private func adopt(_ delegate: (any LensCameraDelegate)?) {
        currentDelegate = delegate
        guard delegate != nil, let waiting = undelivered else { return }
        undelivered = nil
        for event in waiting { queue.async { self.callDelegate(with: event) } }
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
        lock.withLock {
            if undelivered != nil { undelivered?.append(event) } else { queue.async { self.callDelegate(with: event) } }
        }
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
        case .initialCaptureFinished(let name, let thumbnail): delegate.lensCameraDidFinishInitialCapture(name, thumbnail)
        case .photoSigned(let name, let info):
            guard let camera = lock.withLock({ camera }) else { return }
            do {
                delegate.didGenerateTruepic(try camera.fetchResult(name), name: name, info: info)
            } catch {
                delegate.lensCameraDidFailWithError(error)
            }
        case .captureDisabled(let reasons): delegate.lensCameraDidDisableCapture(for: Set(reasons))
        case .captureEnabled: delegate.lensCameraDidEnableCapture()
        case .failed(let error): delegate.lensCameraDidFailWithError(error)
        case .controlFailed(.zoom, let error): delegate.lensCameraChangedZoomFactor(nil, error: error)
        case .controlFailed(.focus, let error): delegate.lensCameraDidFocusOnPoint(nil, error: error)
        case .controlFailed(.camera, let error): delegate.lensCameraDidChangeTo(nil, error: error)
        case .controlFailed(.flashMode, let error): delegate.lensCameraDidSetFlashMode(nil, error: error)
        case .zoomFactorChanged(let factor): delegate.lensCameraChangedZoomFactor(factor, error: nil)
        case .focusedOnPoint(let point): delegate.lensCameraDidFocusOnPoint(point, error: nil)
        case .deviceChanged(let device): delegate.lensCameraDidChangeTo(device, error: nil)
        case .flashModeChanged(let mode): delegate.lensCameraDidSetFlashMode(mode, error: nil)
        case .subjectAreaChanged: delegate.lensCameraSubjectAreaDidChange()
        case .locationChanged(let location): delegate.didUpdateLocation(location)
        case .videoRecordingStarted: delegate.lensCameraDidStartRecordingVideo()
        case .videoRecordingStopped: delegate.lensCameraDidStopRecordingVideo()
        case .videoRecordingFailed(let error): delegate.lensCameraVideoRecordingFailed(error: error)
        case .videoThumbnailGenerated(let name, let thumbnail, let duration):
            delegate.lensCameraDidGenerateVideoThumnail(fileName: name, image: thumbnail, duration: duration)
        case .videoSigned(let name, let info): delegate.didGenerateTruepicVideo(name: name, info: copied(name, info, for: delegate))
        case .videoUnsigned(let name, let info): delegate.didGenerateUnsignedVideo(name: name, info: copied(name, info, for: delegate))
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

    /// A video's info with `fileURL`, once copied into the camera's videoDirectory (the SDK hands
    /// its delegate a file); a copy that fails reaches the delegate as an error first.
    private func copied(_ name: String, _ info: LensVideoInfo, for delegate: any LensCameraDelegate) -> LensVideoInfo {
        guard let camera = lock.withLock({ camera }), let directory = camera.videoDirectory else { return info }
        var copied = info
        do {
            copied.fileURL = try camera.copyVideo(name, into: directory)
        } catch {
            delegate.lensCameraDidFailWithError(.internal("could not copy the video \(name) into \(directory.path): \(error)"))
        }
        return copied
    }
}
