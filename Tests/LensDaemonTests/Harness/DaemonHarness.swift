import Foundation
import LensBus
import LensCamera
import LensContract
import LensCore
@testable import LensDaemon
import LensIdentity
import LensStorage
import LensTestSupport
import XCTest

/// lensd in the test's process: the same wiring root (LensService) with every flow, the machine
/// and the bus tables, on an EmbeddedLoop and an EmbeddedBus instead of sd-event and sd-bus, with
/// the clock the test advances, a fresh state directory, the synthetic camera, and real signing,
/// storage and worker threads. What only the real bus proves (the shipped policy, sd-bus, other
/// users' processes) stays in LensdTests.
final class DaemonHarness {
    let loop = EmbeddedLoop()
    let bus: EmbeddedBus
    let tmp: TemporaryDirectory
    let configuration: Configuration
    let service: LensService
    let store: ResultStore
    private var manager: (any Cancellable)?
    /// The uid the daemon runs as: every other one is a client (root, or a member of the group).
    static let daemonUID = geteuid()

    /// `arguments` as lensd's command line, after the harness's own: the synthetic camera at
    /// 320×240, location optional without gpsd, and the state directory.
    init(_ arguments: [String] = [], location: LocationSource? = nil, cameras: [any Camera]? = nil) throws {
        tmp = try TemporaryDirectory(prefix: "lensd-harness")
        bus = EmbeddedBus(loop: loop)
        let config = tmp.file("lensd.conf")
        try Data().write(to: config)
        configuration = try Configuration.load(arguments: [
            "--config", config.path, "--camera", "synthetic", "--synthetic-size", "320x240", "--location", "optional",
            "--gpsd", "none", "--state-dir", tmp.file("state").path,
        ] + arguments)
        let state = URL(fileURLWithPath: configuration.stateDirectory)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        store = try ResultStore(directory: state.appendingPathComponent("results"), maxCountPerUID: configuration.maxResultsPerUser,
                                maxBytesPerUID: configuration.maxResultBytesPerUser, minimumFreeBytes: configuration.minFreeBytes)
        let identity = DeviceIdentity.load(configuration.identityConfiguration, now: loop.clock.wall())
        service = try LensService(configuration: configuration, ports: LensService.Ports(
            loop: loop, bus: bus, clock: loop.clock, identity: identity, store: store,
            cameras: cameras ?? CameraCatalog.cameras(for: configuration), location: location, stateDirectory: state))
        manager = try bus.export(service.manager, at: Lens1.managerPath)
        service.start()
        loop.run()
    }

    /// Stops as lensd does at SIGTERM: captures under way are finished first. Every ticket must
    /// have ended exactly once by then.
    func shutDown(file: StaticString = #filePath, line: UInt = #line) throws {
        var settled = false
        service.settle { settled = true }
        try loop.run(until: { settled }, "settling")
        service.stop()
        XCTAssertEqual(service.host.machine.faults, [], "tickets ended twice", file: file, line: line)
        XCTAssertTrue(service.host.machine.tickets.isEmpty, "tickets never ended: \(service.host.machine.tickets)", file: file, line: line)
    }

    /// A new connection of user `uid` (root unless told).
    func client(uid: UInt32 = 0) -> HarnessClient { HarnessClient(self, uid: uid) }
}

/// One connection to the embedded lensd: calls, property access, and the signals lensd sent it.
final class HarnessClient {
    let name: String
    let uid: UInt32
    private let harness: DaemonHarness
    /// How many of the bus's recorded signals this client has looked at.
    private var seen = 0

    init(_ harness: DaemonHarness, uid: UInt32) {
        self.harness = harness
        self.uid = uid
        name = harness.bus.connect(uid: uid)
    }

    var loop: EmbeddedLoop { harness.loop }

    /// Calls and waits for the answer (running the loop as the daemon's threads post back).
    @discardableResult
    func call(_ path: String, _ member: String, _ arguments: [BusValue] = [], timeout: Duration = .seconds(30)) throws -> [BusValue] {
        let answer = try harness.bus.call(path, member, arguments, from: name)
        try loop.run(until: { answer.value != nil }, timeout: timeout, "the answer to \(member)")
        return try answer.value!.get()
    }

    @discardableResult
    func callManager(_ member: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        try call(Lens1.managerPath, member, arguments)
    }

    func openSession(_ options: [String: BusValue] = [:]) throws -> String {
        guard let path = try callManager("OpenSession", [.vardict(options)]).first?.objectPathValue else {
            throw HarnessError("OpenSession answered no path")
        }
        loop.run()  // what follows the reply (the initial gate)
        return path
    }

    /// A session holding the camera.
    func claimedSession(_ options: [String: BusValue] = [:]) throws -> String {
        let session = try openSession(options)
        try call(session, "StartCaptureSession")
        return session
    }

    func get(_ path: String, _ property: String) throws -> BusValue {
        try harness.bus.get(path, property, from: name)
    }

    func set(_ path: String, _ property: String, _ value: BusValue) throws {
        try harness.bus.set(path, property, value, from: name)
    }

    /// Every signal sent to this client (unicast) or to everyone, in order.
    var signals: [EmbeddedBus.Emitted] {
        harness.bus.emitted.filter { $0.destination == nil || $0.destination == name }
    }

    /// Waits for the next signal `member` (after those already taken), optionally from `path`
    /// and matching `predicate`; what comes before it is skipped.
    @discardableResult
    func waitForSignal(_ member: String, path: String? = nil, timeout: Duration = .seconds(30),
                       where predicate: @escaping (EmbeddedBus.Emitted) -> Bool = { _ in true }) throws -> EmbeddedBus.Emitted {
        var found: EmbeddedBus.Emitted?
        try loop.run(until: {
            let all = signals
            if let index = all.indices.dropFirst(seen).first(where: {
                all[$0].member == member && (path == nil || all[$0].path == path) && predicate(all[$0])
            }) {
                found = all[index]
                seen = index + 1
            }
            return found != nil
        }, timeout: timeout, "signal \(member)")
        return found!
    }

    /// The signals sent to this client from `path` since the last wait, by name.
    func signalNames(from path: String) -> [String] {
        signals.dropFirst(seen).filter { $0.path == path }.map(\.member)
    }

    /// A photo taken and signed: its name and PhotoSigned's info.
    func photo(in session: String) throws -> (name: String, info: [String: BusValue]) {
        let name = try XCTUnwrap(call(session, "BeginCapture").first?.stringValue)
        let signed = try waitForSignal("PhotoSigned", path: session) { $0.arguments.first?.stringValue == name }
        return (name, signed.arguments.last?.vardictValue ?? [:])
    }

    /// Leaves the bus: its connection-owned sessions close.
    func disconnect() {
        harness.bus.disconnect(name)
        loop.run()
    }
}

extension Error {
    /// The D-Bus error name's last part ("Busy", "NotStarted"), or the whole name of a bus error.
    var shortName: String {
        guard let error = self as? BusError else { return "\(self)" }
        return Lens1.ErrorName(busName: error.name)?.rawValue ?? error.name
    }
}
