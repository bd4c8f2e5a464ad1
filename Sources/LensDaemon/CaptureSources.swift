import LensBus
import LensContract
import LensCore
import LensNetwork
import LensStorage
import LensSystem

/// The capture conditions, computed from their sources — the signing identity, the cameras,
/// location, storage, the TSA and the microphone — and the periodic look at the slow ones
/// (certificate expiry, free space, the microphone), which announces what changed: to the
/// Manager's readers (CameraPresent) and to every session, which re-evaluates its gate.
final class CaptureSources {
    private let configuration: Configuration
    private let clock: LensClock
    private let store: ResultStore
    private let signing: SigningIdentity
    private let cameras: Cameras
    private let microphone: AudioFlow
    private let location: LocationSource?
    /// Under `timestamp = required`: whether a TSA answers.
    private let timeStampWatch: TimeStampWatch?
    private let host: MachineHost
    private let sessions: Sessions
    private let manager: ManagerSignals
    private var locationLog = LocationLog()
    /// The sessions were told of the refusal now in force (Failed LocationPermissionDenied).
    private var announcedPermissionDenied = false
    private var lastLocationBroadcast: ContinuousClock.Instant
    /// What was last announced, to announce changes only.
    private var announcedCameraPresent: Bool
    private var announcedStorageLow: Bool

    init(configuration: Configuration, clock: LensClock, store: ResultStore, signing: SigningIdentity, cameras: Cameras,
         microphone: AudioFlow, location: LocationSource?, timeStampWatch: TimeStampWatch?, host: MachineHost,
         sessions: Sessions, manager: ManagerSignals) {
        self.configuration = configuration
        self.clock = clock
        self.store = store
        self.signing = signing
        self.cameras = cameras
        self.microphone = microphone
        self.location = location
        self.timeStampWatch = timeStampWatch
        self.host = host
        self.sessions = sessions
        self.manager = manager
        lastLocationBroadcast = clock.monotonic() - .seconds(10)
        announcedCameraPresent = cameras.isAvailable
        announcedStorageLow = store.isLowOnSpace
    }

    func start() {
        if let location {
            location.onChange = { [weak self] _ in self?.locationChanged() }
            location.start()
        } else if configuration.locationPolicy == .required && configuration.declaredLocation == nil {
            Log.warning("location is required but gpsd is set to none: capture stays disabled (set --location optional, or a gpsd)")
        }
        timeStampWatch?.start()
    }

    func stop() {
        location?.stop()
        timeStampWatch?.stop()
    }

    var conditions: CaptureConditions {
        var conditions = CaptureConditions(
            enrolled: signing.mayCapture, cameraAvailable: cameras.isAvailable,
            locationPolicy: configuration.locationPolicy, locationFix: currentFix, storageLow: store.isLowOnSpace)
        conditions.locationSourceProblem = locationSourceProblem
        conditions.timestampProblem = timeStampWatch?.problem
        conditions.microphoneProblem = microphone.problem
        return conditions
    }

    /// Why nothing may sign, for the `enrollment` reason's details.
    var enrollmentProblem: String? { signing.problem }

    /// Why there is no location source to wait for a fix from, if so.
    private var locationSourceProblem: String? {
        if case .connecting(let why)? = location?.status { return why }
        if let why = locationPermissionProblem { return why }
        if location == nil, configuration.declaredLocation == nil, configuration.locationPolicy != .never {
            return "no location source (gpsd is set to none)"
        }
        return nil
    }

    /// Why the system refuses lensd its location source (LocationPermissionDenied), if it does.
    var locationPermissionProblem: String? {
        if case .permissionDenied(let why)? = location?.status { return why }
        return nil
    }

    var currentFix: LocationFix? {
        configuration.declaredLocation?.fix(now: clock.wall()) ?? location?.currentFix
    }

    /// What the Location property shows: the current fix, unless location is off entirely.
    var visibleFix: LocationFix? {
        configuration.locationPolicy == .never ? nil : currentFix
    }

    /// Every session re-evaluates its gate (and signals a change).
    func conditionsChanged() {
        for session in sessions.all { session.conditionsChanged() }
    }

    /// A result was stored: free space may have crossed min-free-bytes.
    func storageMayHaveChanged() {
        if store.isLowOnSpace != announcedStorageLow { refresh() }
    }

    /// A capture's time-stamp went through or failed: the TSA watch need not ask.
    func timeStampFound(_ outcome: TimeStamping.Outcome?) {
        if let outcome { timeStampWatch?.captureFound(outcome) }
    }

    /// The periodic look at the slow sources, announcing what changed; also after any source
    /// reported a change.
    func refresh() {
        signing.refresh()
        if cameras.isAvailable != announcedCameraPresent {
            announcedCameraPresent = cameras.isAvailable
            manager.propertiesChanged(["CameraPresent": .bool(announcedCameraPresent)])
        }
        announcedStorageLow = store.isLowOnSpace
        if announcedStorageLow, let recording = host.machine.recording, !recording.stopRequested {
            // Stopped while there is room to finalize and sign it, rather than failed by ENOSPC.
            Log.warning("video \(recording.name): stopping, the disk is almost full (min-free-bytes)")
            host.transition { $0.stopRecording() }
        }
        microphone.probe()
        conditionsChanged()
    }

    private func locationChanged() {
        if let status = location?.status { locationLog.note(status) }
        // A refusal is an error of its own (the SDK's locationPermissionDenied), once as it begins.
        let denied = locationPermissionProblem
        if let denied, !announcedPermissionDenied {
            for session in sessions.all { session.emit(.failed, [.string(Lens1.ErrorName.locationPermissionDenied.busName), .string(denied)]) }
        }
        announcedPermissionDenied = denied != nil
        refresh()
        // LocationChanged at most once a second.
        let now = clock.monotonic()
        guard now - lastLocationBroadcast >= .seconds(1) else { return }
        lastLocationBroadcast = now
        let fix = currentFix
        for session in sessions.all { session.locationChanged(fix) }
    }
}
