import LensBus
import LensCore
import LensMedia
import LensSystem

/// Sound for recordings (the `audio` keys): whether a recording gets a microphone, and the
/// `microphone` condition while sound is required and the device cannot capture.
final class AudioFlow {
    private let configuration: Configuration
    private let host: MachineHost
    private let loop: any LoopExecutor
    /// The `microphone` condition changed.
    var problemChanged: () -> Void = {}
    /// Why the configured device cannot capture while audio = on; nil when it can or sound is optional.
    private(set) var problem: String?
    /// Opening a device can take long, or block (a USB microphone, a PCM plugin waiting for its
    /// source): probes run here, not on the loop. Never stopped: a probe blocked on a device must
    /// not hold up lensd stopping.
    private let worker = SerialWorker(name: "lensd-audio-check")
    private var probing = false

    init(configuration: Configuration, host: MachineHost, loop: any LoopExecutor) {
        self.configuration = configuration
        self.host = host
        self.loop = loop
    }

    /// A recording under way holds the device.
    private var recordingHoldsDevice: Bool { host.machine.recording?.withSound == true }

    /// The microphone for a recording of `session`, capturing already; nil for a silent one.
    /// With audio = auto a device that does not open gives a silent recording (the log says why);
    /// with on, a device that refuses lensd is MicrophonePermissionDenied and one that cannot
    /// capture disables capture (reason microphone).
    func open(for session: Session, recording name: String) throws -> Microphone? {
        guard configuration.audio != .off, session.audio else { return nil }
        do {
            return try Microphone(settings: configuration.audioSettings) { event in Log.warning("video \(name): \(event)") }
        } catch let error as AudioError {
            if configuration.audio == .auto {
                Log.info("video \(name): recording without sound: \(error)")
                return nil
            }
            if error.kind == .permissionDenied { throw LensError.microphonePermissionDenied(error.description) }
            update(error.description)
            throw LensError.captureDisabled("microphone: \(error.description)")
        }
    }

    /// With every refresh of the capture conditions: with audio = on and no recording holding the
    /// device, opens and closes it on the worker to see whether it can capture. A device that
    /// refuses lensd is no `microphone` reason: StartVideoCapture says MicrophonePermissionDenied.
    func probe() {
        guard configuration.audio == .on, !recordingHoldsDevice, !probing else { return }
        probing = true
        let settings = configuration.audioSettings, back = loop.confine(self)
        worker.submit {
            let found: String?
            do {
                try Microphone.probe(settings)
                found = nil
            } catch let error as AudioError where error.kind == .permissionDenied {
                found = nil
            } catch {
                found = "\(error)"
            }
            back.post { flow in
                flow.probing = false
                // A recording that began meanwhile holds the device: what it found counts instead.
                if !flow.recordingHoldsDevice { flow.update(found) }
            }
        }
    }

    private func update(_ new: String?) {
        guard new != problem else { return }
        if let new {
            Log.warning("capture disabled (microphone): \(new) (audio = on; set audio-device, or audio = auto)")
        } else {
            Log.info("capture enabled (microphone): \(configuration.audioDevice) captures")
        }
        problem = new
        problemChanged()
    }
}
