import Glibc
import LensBus
import Synchronization

/// A bus in the test's hands, as swift-nio's EmbeddedChannel: a call goes straight into the
/// exported object through its table (its arguments checked against the method's signature
/// first, as sd-bus does, and its reply against the declared one), every signal and property
/// change is recorded with its destination, peers are names with the uids the test gives them,
/// and a peer that leaves fires its tracks.
final class EmbeddedBus: BusPort {
    struct Emitted: CustomStringConvertible {
        let path: String
        let interface: String
        let member: String
        let arguments: [BusValue]
        /// nil: broadcast.
        let destination: String?
        var description: String { "\(member)@\(path)→\(destination ?? "*")" }
    }

    private(set) var emitted: [Emitted] = []
    private var objects: [String: BusInterface] = [:]
    private var peers: [String: UInt32] = [:]
    private var tracks: [String: [Int: () -> Void]] = [:]
    private var nextPeer = 1
    private var nextTrack = 1
    let loop: EmbeddedLoop

    init(loop: EmbeddedLoop) { self.loop = loop }

    // MARK: BusPort

    func export(_ object: BusInterface, at path: String) throws -> any Cancellable {
        guard objects[path] == nil else { throw BusError("org.freedesktop.DBus.Error.FileExists", "\(path) is exported already") }
        objects[path] = object
        return Registration { [weak self] in self?.objects[path] = nil }
    }

    func track(peer: String, onGone: @escaping () -> Void) throws -> any Cancellable {
        guard peers[peer] != nil else { throw BusError("org.freedesktop.DBus.Error.NameHasNoOwner", "\(peer) is not on the bus") }
        let id = nextTrack
        nextTrack += 1
        tracks[peer, default: [:]][id] = onGone
        return Registration { [weak self] in self?.tracks[peer]?[id] = nil }
    }

    func peerUID(_ uniqueName: String) throws -> UInt32 {
        guard let uid = peers[uniqueName] else { throw BusError("org.freedesktop.DBus.Error.NameHasNoOwner", "no peer \(uniqueName)") }
        return uid
    }

    func emitSignal(path: String, interface: String, member: String, arguments: [BusValue], destination: String?) throws {
        emitted.append(Emitted(path: path, interface: interface, member: member, arguments: arguments, destination: destination))
    }

    func emitPropertiesChanged(path: String, interface: String, changed: [String: BusValue], destination: String?) throws {
        try emitSignal(path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                       arguments: [.string(interface), .vardict(changed), .stringArray([])], destination: destination)
    }

    // MARK: The test's side

    /// A new connection of user `uid`: its unique name.
    func connect(uid: UInt32) -> String {
        let name = ":1.\(nextPeer)"
        nextPeer += 1
        peers[name] = uid
        return name
    }

    /// The connection leaves the bus: what tracks it hears so, once.
    func disconnect(_ peer: String) {
        peers[peer] = nil
        for gone in (tracks.removeValue(forKey: peer) ?? [:]).values { gone() }
    }

    var exportedPaths: [String] { objects.keys.sorted() }

    /// Calls `member` of the object at `path` as `sender`; the answer comes when the object gives
    /// it — at once, or later through its DeferredReply (run the loop until `answer` has one).
    func call(_ path: String, _ member: String, _ arguments: [BusValue], from sender: String) throws -> PendingAnswer {
        guard let object = objects[path] else { throw BusError("org.freedesktop.DBus.Error.UnknownObject", "no object at \(path)") }
        guard let method = object.interface.methods.first(where: { $0.name == member }) else {
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", "no method \(member) at \(path)")
        }
        guard arguments.map(\.signature).joined() == method.inSignature else {
            throw BusError.invalidArgs("\(member) takes '\(method.inSignature)', not '\(arguments.map(\.signature).joined())'")
        }
        let answer = PendingAnswer(loop: loop, member: member, declared: method.outSignature)
        let call = MethodCall(sender: sender, path: path, member: member, arguments: arguments, answering: answer)
        switch object.call(call) {
        case .reply(let values): answer.send(.success(values))
        case .error(let error): answer.send(.failure(error))
        case .deferred: break
        }
        return answer
    }

    func get(_ path: String, _ property: String, from sender: String) throws -> BusValue {
        guard let object = objects[path] else { throw BusError("org.freedesktop.DBus.Error.UnknownObject", "no object at \(path)") }
        return try object.get(property: property, sender: sender)
    }

    func set(_ path: String, _ property: String, _ value: BusValue, from sender: String) throws {
        guard let object = objects[path] else { throw BusError("org.freedesktop.DBus.Error.UnknownObject", "no object at \(path)") }
        try object.set(property: property, value: value, sender: sender)
    }
}

/// The answer to one call made through EmbeddedBus, once the object gives it.
final class PendingAnswer: CallAnswering {
    let loop: any LoopExecutor
    private let member: String
    private let declared: String
    private let result = Mutex<Result<[BusValue], BusError>?>(nil)

    init(loop: any LoopExecutor, member: String, declared: String) {
        self.loop = loop
        self.member = member
        self.declared = declared
    }

    func send(_ answer: Result<[BusValue], BusError>) {
        // As sd-bus: a reply that does not match the declared signature becomes an error, and the
        // fds in one are duplicated for the receiver as the reply is built (the sender closes its own).
        let checked = answer.flatMap { values -> Result<[BusValue], BusError> in
            values.map(\.signature).joined() == declared ? .success(values.map(Self.duplicatingDescriptors))
                : .failure(.failed("\(member) returned '\(values.map(\.signature).joined())' where '\(declared)' is declared"))
        }
        result.withLock { $0 = $0 ?? checked }
    }

    private static func duplicatingDescriptors(_ value: BusValue) -> BusValue {
        switch value {
        case .fd(let fd): .fd(fcntl(fd, F_DUPFD_CLOEXEC, 3))
        case .variant(let inner): .variant(duplicatingDescriptors(inner))
        case .structure(let fields): .structure(fields.map(duplicatingDescriptors))
        case .array(let element, let values): .array(elementSignature: element, values.map(duplicatingDescriptors))
        default: value
        }
    }

    var value: Result<[BusValue], BusError>? { result.withLock { $0 } }
}

private final class Registration: Cancellable {
    private var undo: (() -> Void)?
    init(_ undo: @escaping () -> Void) { self.undo = undo }
    func cancel() { undo.take()?() }
    deinit { cancel() }
}
