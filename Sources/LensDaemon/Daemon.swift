import FoundationEssentials
import Glibc
import LensBus
import LensContract
import LensCore
import LensFace
import LensIdentity
import LensStorage
import LensSystem

/// Start-up and shut-down: configuration → bus → identity → storage → cameras → objects → loop.
public enum Daemon {
    public static func run(arguments: [String]) -> Int32 {
        if arguments.contains("--help") {
            print(Configuration.usage)
            return 0
        }
        if arguments.contains("--version") {
            print("lensd \(ProjectVersion.string)")
            return 0
        }
        // As `sshd -t`: the configuration is read and checked, nothing else happens.
        let checkOnly = arguments.contains("--check-config")
        let configuration: Configuration
        do { configuration = try Configuration.load(arguments: arguments.filter { $0 != "--check-config" }) } catch {
            let usage = (error as? ConfigurationError)?.isCommandLine ?? false
            Log.error("lensd: \(error)" + (usage ? "\n\(Configuration.usage)" : ""))
            return 2
        }
        if checkOnly {
            do { _ = try LBPCascade(contentsOf: configuration.faceCascadePath) } catch {
                // The default is only missing without opencv-data: face auto-capture is then unavailable, nothing else.
                let line = "face-cascade \(configuration.faceCascadePath): \(error)"
                if configuration.faceCascadeIsExplicit { Log.error("lensd: \(line)"); return 2 }
                print("lensd: note: face auto-capture unavailable (\(line))")
            }
            print("lensd: configuration OK (\(FileManager.default.fileExists(atPath: configuration.configPath) ? configuration.configPath : "defaults"))")
            return 0
        }
        Log.setLevel(configuration.logLevel)
        do {
            return try serve(configuration)
        } catch {
            Log.error("lensd: \(error)")
            return 1
        }
    }

    private static func serve(_ configuration: Configuration) throws -> Int32 {
        FreedMemory.returnLargeBlocksWhenFreed()
        // Before any thread exists (the cameras', signing's and storage's come with LensService):
        // they inherit the mask, so SIGTERM and SIGINT wait for the loop's signal source instead of
        // killing the process wherever they land.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        umask(0o077)
        try ProcessHardening.disableCoreDumps()
        // The bus first: a lensd that cannot serve must not enroll a device in its state directory.
        let loop = try EventLoop()
        let bus = try BusConnection(configuration.bus, loop: loop, description: "lensd")
        let state = URL(fileURLWithPath: configuration.stateDirectory)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try StateDirectoryCheck.check(state.path)

        let identity = DeviceIdentity.load(configuration.identityConfiguration)
        if identity.state == .enrolled {
            Log.info("device identity \(identity.fingerprint ?? "?"), certificate valid until \(identity.certificateNotAfter.map { "\($0)" } ?? "?")")
        } else {
            Log.warning("capture disabled (enrollment): \(identity.problem ?? identity.state.rawValue)")
        }
        let store = try ResultStore(directory: state.appendingPathComponent("results"),
                                    maxCountPerUID: configuration.maxResultsPerUser,
                                    maxBytesPerUID: configuration.maxResultBytesPerUser,
                                    minimumFreeBytes: configuration.minFreeBytes)

        let service = try LensService(configuration: configuration, ports: LensService.Ports(
            loop: loop, bus: bus, identity: identity, store: store, cameras: CameraCatalog.cameras(for: configuration),
            location: gpsd(configuration, loop: loop), stateDirectory: state))
        let registration = try bus.export(service.manager, at: Lens1.managerPath)
        // Session numbers are nobody else's business: each caller introspects only the sessions it may use.
        let introspection = try bus.guardIntrospection(under: Lens1.sessionsPath) { [sessions = service.sessions] sender in
            sessions.visible(to: sender).map(String.init)
        }
        try bus.requestName(Lens1.busName)
        service.start()
        var stopping = false
        try loop.onSignals([SIGTERM, SIGINT]) { signal in
            Log.info("signal \(signal): stopping")
            // Captures under way are finished first; a second signal, or the deadline (within
            // systemd's stop timeout), does not wait: a recording cut short then is recovered at
            // the next start.
            guard !stopping else { return loop.exit(0) }
            stopping = true
            loop.schedule(after: .seconds(30)) { loop.exit(0) }
            service.settle { loop.exit(0) }
        }
        ServiceManager.notify("READY=1\nSTATUS=serving \(Lens1.busName)")
        if let interval = ServiceManager.watchdogInterval {
            loop.every(interval / 2) { ServiceManager.notify("WATCHDOG=1") }
        }
        Log.info("lensd \(ProjectVersion.string) serving \(Lens1.busName) as \(bus.uniqueName)")
        let code = try loop.run()
        ServiceManager.notify("STOPPING=1")
        service.stop()
        introspection.cancel()
        registration.cancel()
        bus.close()
        return code
    }
}

extension Daemon {
    /// gpsd as the location source, unless location is off, declared, or gpsd is set to none.
    static func gpsd(_ configuration: Configuration, loop: EventLoop) -> LocationSource? {
        guard configuration.locationPolicy != .never, configuration.declaredLocation == nil, let gpsd = configuration.gpsd else {
            return nil
        }
        return GPSDLocationProvider(host: gpsd.host, port: gpsd.port, scheduler: LoopScheduler(loop), clock: LensClock.system.wall)
    }
}
