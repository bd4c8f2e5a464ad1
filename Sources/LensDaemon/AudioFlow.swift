import LensCore

/// Sound for recordings (the `audio` keys): whether a recording gets a microphone, and the
/// `microphone` reason while sound is required and the device cannot capture.
extension LensService {
    /// The microphone for a recording of `session`, capturing already; nil for a silent one.
    /// With audio = auto a device that does not open gives a silent recording (the log says why);
    /// with on, a device that refuses lensd is MicrophonePermissionDenied and one that cannot
    /// capture disables capture (reason microphone).
    func microphone(for session: Session, recording name: String) throws -> Microphone? {
        guard configuration.audio != .off, session.audio else { return nil }
        do {
            return try Microphone(settings: configuration.audioSettings) { event in Log.warning("video \(name): \(event)") }
        } catch let error as AudioError {
            if configuration.audio == .auto {
                Log.info("video \(name): recording without sound: \(error)")
                return nil
            }
            if error.kind == .permissionDenied { throw LensError.microphonePermissionDenied(error.description) }
            microphoneProblemChanged(error.description)
            throw LensError.captureDisabled("microphone: \(error.description)")
        }
    }

    /// Called with every refresh of the capture conditions: with audio = on and no recording
    /// holding the device, opens and closes it to see whether it can capture. A device that
    /// refuses lensd is no `microphone` reason: StartVideoCapture says MicrophonePermissionDenied.
    func refreshMicrophone() {
        guard configuration.audio == .on else { return }
        guard recording?.hasMicrophone != true else { return }
        do {
            try Microphone.probe(configuration.audioSettings)
            microphoneProblemChanged(nil)
        } catch let error as AudioError where error.kind == .permissionDenied {
            microphoneProblemChanged(nil)
        } catch {
            microphoneProblemChanged("\(error)")
        }
    }

    private func microphoneProblemChanged(_ problem: String?) {
        guard problem != conditions.microphoneProblem else { return }
        if let problem {
            Log.warning("capture disabled (microphone): \(problem) (audio = on; set audio-device, or audio = auto)")
        } else if conditions.microphoneProblem != nil {
            Log.info("capture enabled (microphone): \(configuration.audioDevice) captures")
        }
        setMicrophoneProblem(problem)
    }
}
