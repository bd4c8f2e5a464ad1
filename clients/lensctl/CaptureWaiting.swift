import FoundationEssentials
import LensClient

/// The waits of `capture` and `record`: until capture is enabled (saying why on stderr), then,
/// for a photo, until it is signed — bounded by one deadline.
struct CaptureWaiting {
    let camera: LensCamera
    let inbox: EventInbox
    let deadline: ContinuousClock.Instant
    let timeout: Double

    /// Reasons that waiting cannot cure.
    private static let permanent: [LensCaptureStatus] = [.enrollment, .camera]

    /// `start` (BeginCapture, StartVideoCapture) as soon as lensd allows it; returns what it
    /// returned. A fix lost for a moment makes it wait, not fail.
    func whenEnabled<T>(_ start: () throws(LensClientError) -> T) throws -> T {
        var waitingFor = ""
        while true {
            let status = try Connection.client { () throws(LensClientError) in try camera.captureStatus() }
            if status.captureEnabled {
                do {
                    return try start()
                } catch .captureDisabled {
                    // Disabled again between the two calls: wait for the next change.
                } catch {
                    throw CommandFailure(error)
                }
            } else {
                let reasons = Describe.reasons(status)
                if status.disabledReasons.contains(where: Self.permanent.contains) {
                    throw CommandFailure(.failed, "capture is disabled: \(reasons)")
                }
                if reasons != waitingFor {
                    waitingFor = reasons
                    Output.note("waiting for \(reasons)")
                }
            }
            // Any event may change the picture; a fix that improves without a new threshold
            // crossing sends none, so look again every second.
            if case .disconnected(let error) = try nextEvent(within: .seconds(1), waitingFor: waitingFor) {
                throw CommandFailure(error)
            }
        }
    }

    /// Waits for the photo's PhotoSigned, keeping the thumbnail that comes first; a Failed
    /// signal or a lost connection ends the wait.
    func signedPhoto(_ name: String) throws -> (info: LensResultInfo, thumbnail: Data?) {
        var thumbnail: Data?
        while true {
            switch try nextEvent(within: nil, waitingFor: "photo \(name) to be signed") {
            case .initialCaptureFinished(name, let jpeg)?: thumbnail = jpeg
            case .photoSigned(name, let info)?: return (info, thumbnail)
            case .failed(let error)?: throw CommandFailure(.failed, "capture \(name) failed: \(error.message)")
            case .disconnected(let error)?: throw CommandFailure(error)
            default: continue
            }
        }
    }

    /// The next event within `slice` (nil when the slice passes quietly), or a timeout failure
    /// once the deadline has passed.
    private func nextEvent(within slice: Duration?, waitingFor: String) throws -> LensEvent? {
        guard ContinuousClock.now < deadline else {
            throw CommandFailure(.timeout, "gave up after \(Seconds.plain(timeout)) s waiting for \(waitingFor)")
        }
        let until = slice.map { min(deadline, .now + $0) } ?? deadline
        return inbox.next(before: until)
    }
}
