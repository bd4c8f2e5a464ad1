import FoundationEssentials
import LensBus
import LensCamera
import LensCore
import LensIdentity
import LensStorage
import LensSystem

/// The wiring root: makes every part of the daemon with the narrow inputs it needs, joins the
/// flows to the machine in the order effects must reach them, and starts and stops them. Nothing
/// reaches a part through it; lensd (Daemon) and the in-process tests make it with their ports.
final class LensService {
    /// What the daemon runs on: its loop, its bus, its clock and its devices.
    struct Ports {
        var loop: any LoopExecutor
        var bus: any BusPort
        var clock: LensClock = .system
        var identity: DeviceIdentity
        var store: ResultStore
        var cameras: [any Camera]
        /// nil: no location source (gpsd = none, a declared location, or location = never).
        var location: LocationSource?
        var stateDirectory: URL
        /// Where signing and reading results back run.
        var signingWorker: any JobQueue = SerialWorker(name: "lensd-signing")
        var storageWorker: any JobQueue = SerialWorker(name: "lensd-storage")
    }

    let configuration: Configuration
    let manager: Manager
    let host: MachineHost
    let sessions: Sessions
    private let ports: Ports
    private let cameras: Cameras
    private let signing: SigningIdentity
    private let sources: CaptureSources
    private let microphone: AudioFlow
    private let settling: Settling
    private let outbox: OutboxFlow?
    private let restamp: RestampFlow?
    private let recovery: VideoRecovery
    /// Kept alive here: the machine's host holds flows weakly.
    private let flows: [CaptureFlow]

    init(configuration: Configuration, ports: Ports) throws {
        self.configuration = configuration
        self.ports = ports
        let loop = ports.loop, bus = ports.bus, clock = ports.clock, store = ports.store
        let managerSignals = ManagerSignals(bus: bus)
        var sessionsRef: Sessions?
        host = MachineHost { number in sessionsRef?.inUse(by: number) }
        let authorizer = Authorizer(group: configuration.allowedGroup)
        sessions = Sessions(host: host, authorizer: authorizer, configuration: configuration, clock: clock, loop: loop)
        sessionsRef = sessions
        cameras = Cameras(ports.cameras, configuration: configuration, loop: loop, host: host, sessions: sessions)
        signing = SigningIdentity(ports.identity, configuration: configuration, clock: clock, loop: loop, host: host,
                                  sessions: sessions, manager: managerSignals)
        microphone = AudioFlow(configuration: configuration, host: host, loop: loop)
        let timeStampWatch = configuration.timeStamping.flatMap { timeStamping in
            timeStamping.policy == .required ? TimeStampWatch(client: timeStamping.client, loop: loop) : nil
        }
        sources = CaptureSources(configuration: configuration, clock: clock, store: store, signing: signing, cameras: cameras,
                                 microphone: microphone, location: ports.location, timeStampWatch: timeStampWatch, host: host,
                                 sessions: sessions, manager: managerSignals)
        outbox = try OutboxFlow.make(configuration, stateDirectory: ports.stateDirectory, store: store, sessions: sessions,
                                     manager: managerSignals, loop: loop)
        restamp = try RestampFlow.make(configuration, stateDirectory: ports.stateDirectory, store: store, signing: signing,
                                       sessions: sessions, outbox: outbox?.outbox, loop: loop)
        let publishing = PublishingSetup(signing: signing, store: store, timeStamping: configuration.timeStamping,
                                         outbox: outbox?.outbox, restampQueue: restamp?.queue)
        let photoPublisher = PhotoPublisher(host: host, sources: sources, publishing: publishing, configuration: configuration,
                                            worker: ports.signingWorker, loop: loop)
        let videoPublisher = VideoPublisher(host: host, sessions: sessions, sources: sources, publishing: publishing, clock: clock,
                                            worker: ports.signingWorker, storageWorker: ports.storageWorker, loop: loop)
        recovery = VideoRecovery(store: store, host: host, publisher: videoPublisher, worker: ports.signingWorker, loop: loop)
        let previews = PreviewFlow(host: host, cameras: cameras, clock: clock, loop: loop)
        let claims = CameraClaim(host: host, sessions: sessions, cameras: cameras, bus: bus, loop: loop, clock: clock,
                                 idleTimeout: configuration.claimIdleTimeout, previewIsRead: previews.isRead(within:))
        let controls = CameraControls(host: host, cameras: cameras, loop: loop, clock: clock)
        let faces = FaceFlow(host: host, cameras: cameras, publisher: photoPublisher, configuration: configuration, loop: loop)
        let videos = VideoFlow(host: host, sessions: sessions, cameras: cameras, sources: sources, microphone: microphone,
                               store: store, configuration: configuration, clock: clock, loop: loop, publisher: videoPublisher)
        let pump = FramePump(host: host, cameras: cameras, loop: loop)
        settling = Settling(host: host)
        let storeCalls = StoreCalls(store: store, worker: ports.storageWorker, loop: loop)
        sessions.context = SessionContext(
            bus: bus, loop: loop, clock: clock, host: host, sources: sources, sessions: sessions, cameras: cameras, claims: claims,
            controls: controls, photos: PhotoFlow(host: host, cameras: cameras, publisher: photoPublisher), videos: videos,
            previews: previews, faces: faces, storeCalls: storeCalls)
        manager = Manager(sessions: sessions, cameras: cameras, signing: signing, claims: claims, outbox: outbox,
                          storeCalls: storeCalls, enrollment: Enrollment(configuration: configuration, signing: signing),
                          authorizer: authorizer, bus: bus)
        // In the order each effect reaches them: the waiting queue first, then what belongs to an
        // ended claim, which ends before the camera closes.
        flows = [claims, controls, previews, faces, videos, pump, cameras, settling]
        host.join(flows)

        let sources = sources, restamp = restamp
        cameras.availabilityChanged = { sources.refresh() }
        microphone.problemChanged = { sources.conditionsChanged() }
        timeStampWatch?.changed = { sources.refresh() }
        signing.conditionsMayHaveChanged = { sources.refresh() }
        signing.signerChanged = { signer, anchor in restamp?.signerChanged(signer, trustAnchor: anchor) }
    }

    // MARK: Start and stop

    func start() {
        sources.start()
        signing.start()
        microphone.probe()
        announceEvictions()
        recovery.recoverInterruptedRecordings()
        // Certificate expiry and free space change slowly: look every few seconds.
        ports.loop.every(.seconds(5)) { [sources] in sources.refresh() }
        ports.loop.every(min(.seconds(15), configuration.sessionIdleTimeout / 2)) { [sessions] in sessions.closeStale() }
        ports.loop.every(.seconds(1)) { [sessions] in sessions.closeRevoked() }
        cameras.start()
    }

    /// Captures under way are finished first (Settling); then `done`.
    func settle(_ done: @escaping () -> Void) {
        settling.settle(done)
    }

    func stop() {
        sources.stop()
        sessions.closeAll()
        cameras.stop()
        ports.signingWorker.stop()
        ports.storageWorker.stop()
        outbox?.stop()
        restamp?.stop()
        signing.stop()
    }

    /// Retention at the per-user caps is logged and told to the owner (ResultEvicted), never silent.
    private func announceEvictions() {
        let back = ports.loop.confine(sessions)
        ports.store.onEviction { evicted, reason in
            back.post { sessions in
                Log.info("\(evicted.kind) \(evicted.name) of "
                    + "\(Authorizer.userName(evicted.uid)) deleted (\(evicted.size) bytes): \(reason)")
                sessions.announce(toOwner: evicted.uid, .resultEvicted, [.string(evicted.name), .string(reason)])
            }
        }
    }
}
