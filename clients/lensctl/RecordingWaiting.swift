import LensClient

/// The waits of `record`: while the video records (with the live line), then until lensd has
/// stored it.
struct RecordingWaiting {
    /// The video lensd stored, and the fault that ended the recording, if one did.
    struct Stored {
        var name: String
        var info: LensVideoInfo
        var signed: Bool
        var fault: LensClientError?
    }

    let camera: LensCamera
    let inbox: EventInbox
    /// The video's name, as lensd gave it when the recording started.
    let name: String?

    /// How often the live line is refreshed and a stop request looked for.
    static let pollInterval: Duration = .milliseconds(500)
    /// lensd finishes, hashes the last part and signs after the stop: seconds even for long videos.
    static let resultTimeout: Duration = .seconds(60)
    /// After a fault, a thumbnail within this time says frames were written and a result
    /// follows; lensd sends nothing more when there were none.
    static let faultGrace: Duration = .seconds(10)

    /// Records until `end`, a stop signal, or a fault (returned: the recording is over then).
    func record(until end: ContinuousClock.Instant?, stop: StopSignals) throws -> LensClientError? {
        let live = LiveLine.onTerminal()
        defer { live?.finish() }  // idempotent: also ends the line when a fault or an error ends the loop
        var nextPoll = ContinuousClock.now
        while !stop.stopRequested, end.map({ ContinuousClock.now < $0 }) ?? true {
            if let live, .now >= nextPoll {
                let progress: LensVideoProgress?
                do { progress = try camera.videoRecordingProgress } catch { throw lost(error) }
                if let progress { live.show(progress) }
                nextPoll = .now + Self.pollInterval
            }
            let slice = ContinuousClock.now + Self.pollInterval
            switch inbox.next(before: end.map { min($0, slice) } ?? slice) {
            case .videoRecordingFailed(let fault)?: return fault
            case .disconnected(let error)?: throw lost(error)
            default: continue
            }
        }
        live?.finish()
        if stop.stopRequested { Output.note("stopping; waiting for lensd to store the video (a second signal quits at once)") }
        do {
            try camera.stopVideoCapture()
        } catch .notStarted {
            // A fault ended the recording first; its VideoRecordingFailed is on the way.
        } catch {
            throw lost(error)
        }
        return nil
    }

    /// Waits for VideoSigned or VideoUnsigned. A fault without frames ends in a failure.
    func stored(after fault: LensClientError?) throws -> Stored {
        var fault = fault
        var faultDeadline = fault.map { _ in ContinuousClock.now + Self.faultGrace }
        let deadline = ContinuousClock.now + Self.resultTimeout
        while true {
            guard let event = inbox.next(before: min(deadline, faultDeadline ?? deadline)) else {
                if let fault, faultDeadline != nil { throw CommandFailure(.failed, "the recording failed: \(fault.message)") }
                throw CommandFailure(.timeout, "gave up after \(Self.resultTimeout.components.seconds) s waiting for lensd to store the video")
            }
            switch event {
            case .videoRecordingFailed(let error):
                fault = error
                faultDeadline = .now + Self.faultGrace
            case .videoThumbnailGenerated:
                faultDeadline = nil
            case .videoSigned(let name, let info):
                return Stored(name: name, info: info, signed: true, fault: fault)
            case .videoUnsigned(let name, let info):
                return Stored(name: name, info: info, signed: false, fault: fault)
            case .failed(let error):
                throw CommandFailure(.failed, "lensd could not store the video: \(error.message)")
            case .disconnected(let error):
                throw lost(error)
            default:
                continue
            }
        }
    }

    /// lensd went away with the video unfinished: its journal survives, and lensd finalizes it
    /// under the same name when it starts again, so say how to get it then.
    private func lost(_ error: LensClientError) -> CommandFailure {
        let failure = CommandFailure(error)
        guard let name, failure.code == .daemonUnreachable else { return failure }
        return CommandFailure(.daemonUnreachable, "\(error.message); lensd recovers video \(name) when it starts again: "
                              + "then lensctl fetch \(name) writes it (lensctl results lists it)")
    }
}
