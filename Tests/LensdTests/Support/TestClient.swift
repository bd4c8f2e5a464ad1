import Foundation
import LensBus
import LensTestSupport
import XCTest

/// An in-process client of lensd on the private bus (as root, the test's own user). It records
/// every signal lensd sends it, so a test can wait for one and check its payload.
final class TestClient {
    static let destination = "org.lensd.Lens1"
    static let managerPath = "/org/lensd/Lens1"
    static let manager = "org.lensd.Lens1.Manager"
    static let session = "org.lensd.Lens1.Session"

    let loop: EventLoop
    let bus: BusConnection
    private(set) var signals: [SignalMessage] = []
    private var subscription: BusRegistration?

    init(address: String) throws {
        loop = try EventLoop()
        bus = try BusConnection(.address(address), loop: loop, description: "lensd-test")
        subscription = try bus.subscribe(sender: Self.destination, path: nil, interface: nil, member: nil) { [weak self] in
            self?.signals.append($0)
        }
    }

    @discardableResult
    func callManager(_ member: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        try bus.call(destination: Self.destination, path: Self.managerPath, interface: Self.manager, member: member,
                     arguments: arguments)
    }

    @discardableResult
    func call(_ path: String, _ member: String, _ arguments: [BusValue] = [], interface: String = TestClient.session) throws -> [BusValue] {
        try bus.call(destination: Self.destination, path: path, interface: interface, member: member, arguments: arguments)
    }

    func get(_ path: String, _ property: String, interface: String = TestClient.session) throws -> BusValue {
        let reply = try bus.call(destination: Self.destination, path: path, interface: "org.freedesktop.DBus.Properties",
                                 member: "Get", arguments: [.string(interface), .string(property)])
        guard let value = reply.first?.variantValue else { throw TestToolError("Get \(property): \(reply)") }
        return value
    }

    func set(_ path: String, _ property: String, _ value: BusValue, interface: String = TestClient.session) throws {
        try bus.call(destination: Self.destination, path: path, interface: "org.freedesktop.DBus.Properties",
                     member: "Set", arguments: [.string(interface), .string(property), .variant(value)])
    }

    func openSession(_ options: [String: BusValue] = [:]) throws -> String {
        guard let path = try callManager("OpenSession", [.vardict(options)]).first?.objectPathValue else {
            throw TestToolError("OpenSession returned no path")
        }
        return path
    }

    /// org.freedesktop.DBus.Peer.Ping on lensd: the daemon is alive and answering.
    func ping() throws {
        try bus.call(destination: Self.destination, path: Self.managerPath, interface: "org.freedesktop.DBus.Peer", member: "Ping")
    }

    /// Runs the loop until a signal `member` arrives (optionally from `path`) and removes it from the record.
    @discardableResult
    func waitForSignal(_ member: String, path: String? = nil, timeout: TimeInterval = 20,
                       where predicate: (SignalMessage) -> Bool = { _ in true }) throws -> SignalMessage {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let index = signals.firstIndex(where: { $0.member == member && (path == nil || $0.path == path) && predicate($0) }) {
                return signals.remove(at: index)
            }
            guard Date() < deadline else {
                throw TestToolError("no \(member) signal within \(timeout) s; got \(signals.map(\.member))")
            }
            _ = try loop.runOnce(timeout: .milliseconds(100))
        }
    }

    /// Runs the loop for `seconds`, collecting whatever arrives.
    func drain(for seconds: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline { _ = try loop.runOnce(timeout: .milliseconds(50)) }
    }

    /// Runs the loop until the session's recording holds `seconds` of frames, rather than for
    /// `seconds`: under emulation or on a busy host frames come slower than the wall clock.
    func waitUntilRecorded(_ session: String, seconds: Double, timeout: TimeInterval = 120) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try get(session, "VideoRecordingProgress").vardictValue?["duration"]?.doubleValue ?? 0 < seconds {
            guard Date() < deadline else { throw TestToolError("the recording holds less than \(seconds) s after \(timeout) s") }
            try drain(for: 0.1)
        }
    }

    func forgetSignals() { signals.removeAll() }
    func forgetSignals(_ members: Set<String>) { signals.removeAll { members.contains($0.member) } }

    /// The trust anchor PEM written to a file, for c2pa-python.
    func trustAnchorFile(in directory: TemporaryDirectory) throws -> URL {
        guard let pem = try callManager("GetTrustAnchor").first?.stringValue else { throw TestToolError("no anchor") }
        let url = directory.file("anchor.pem")
        try pem.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    deinit { bus.close() }
}

extension BusError {
    var shortName: String { name.components(separatedBy: ".").last ?? name }
}
