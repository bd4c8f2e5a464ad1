import Foundation
import LensBus
import Synchronization

/// A small exported object covering every shape LensBus supports; it knows nothing of cameras.
final class TestService: BusInterface, @unchecked Sendable {
    // @unchecked Sendable: its handlers run on the server's loop thread; the few values tests
    // read from their own thread are behind `state`.
    static let path = "/org/lensd/Test1"
    static let name = "org.lensd.Test1"

    struct State {
        var name = "initial"
        var lastSetter = ""
        var scratch = 0.0
    }

    let state = Mutex(State())
    /// The connection Emit sends on (the test's server connection); set once it is exported there.
    nonisolated(unsafe) weak var connection: BusConnection?
    /// An open file whose fd OpenFile returns: sd-bus dups it into each reply, so it stays ours.
    private let file: FileHandle
    static let fileContents = Array("lensd fd passing\n".utf8)

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lensbus-fd-\(UUID().uuidString)")
        try Data(Self.fileContents).write(to: url)
        file = try FileHandle(forReadingFrom: url)
        try FileManager.default.removeItem(at: url)
    }

    let interface = InterfaceDescription(
        name: TestService.name,
        methods: [
            .init("Echo", in: ["text": "s"], out: ["text": "s"]),
            .init("Add", in: ["a": "i", "b": "i"], out: ["sum": "i"]),
            .init("Refuse"),
            .init("Later", in: ["text": "s"], out: ["text": "s"]),
            .init("Drop", out: ["text": "s"]),
            .init("WrongReply", out: ["text": "s"]),
            .init("OpenFile", out: ["fd": "h", "size": "t"]),
            .init("Mirror", in: ["value": "v"], out: ["value": "v"]),
            .init("Emit", in: ["target": "s"]),
            .init("Configure", in: ["options": "a{sv}"]),
        ],
        properties: [
            .init(name: "Name", signature: "s", writable: true),
            .init(name: "Version", signature: "s", emitsChange: .const),
            .init(name: "Secret", signature: "s"),
            .init(name: "Misnamed", signature: "s"),
            .init(name: "Counter", signature: "u", emitsChange: .invalidates),
            .init(name: "Scratch", signature: "d", writable: true, emitsChange: .no),
        ],
        signals: [
            .init("Ping", ["message": "s", "unicast": "b"]),
        ])

    func call(_ call: MethodCall) -> MethodResult {
        switch (call.member, call.arguments) {
        case ("Echo", let arguments):
            return .reply(arguments)
        case ("Add", let arguments):
            guard let a = arguments.first?.int32Value, let b = arguments.last?.int32Value else {
                return .error(.invalidArgs("Add takes two int32"))
            }
            return .reply([.int32(a &+ b)])
        case ("Refuse", _):
            return .error(BusError("org.lensd.Test1.Error.Busy", "The camera is held by uid 1000"))
        case ("Later", let arguments):
            // Answered from a worker thread, as a capture finishing off the loop would be.
            let deferred = DeferredReply(for: call)
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                deferred.reply(arguments)
            }
            return .deferred(deferred)
        case ("Drop", _):
            return .deferred(DeferredReply(for: call))  // released unanswered right away
        case ("Configure", _):
            // Refuses every option, as lensd refuses an unknown one.
            return .error(BusError("org.lensd.Test1.Error.InvalidArgument", "unknown option"))
        case ("WrongReply", _):
            return .reply([.int32(7)])
        case ("OpenFile", _):
            return .reply([.fd(file.fileDescriptor), .uint64(UInt64(Self.fileContents.count))])
        case ("Mirror", let arguments):
            // Received fds are lent by the request for the call; sd-bus dups them into the reply.
            return .reply(arguments)
        case ("Emit", let arguments):
            guard let target = arguments.first?.stringValue else { return .error(.invalidArgs("Emit takes a name")) }
            guard let connection else { return .error(.failed("Emit: no connection to send on")) }
            do {
                try connection.emitSignal(path: Self.path, interface: Self.name, member: "Ping",
                                               arguments: [.string("for \(target)"), .bool(true)], destination: target)
                try connection.emitSignal(path: Self.path, interface: Self.name, member: "Ping",
                                          arguments: [.string("for everyone"), .bool(false)])
                return .reply([])
            } catch {
                return .error(error as? BusError ?? .failed("\(error)"))
            }
        default:
            return .error(.invalidArgs("unexpected \(call.member)"))
        }
    }

    func get(property: String, sender: String) throws -> BusValue {
        switch property {
        case "Name": return .string(state.withLock { $0.name })
        case "Version": return .string("1.0")
        case "Secret": throw BusError("org.lensd.Test1.Error.NotAuthorized", "Only the owner may read Secret")
        case "Misnamed": throw BusError("Not.A.Valid.1Name", "refused")
        case "Counter": return .uint32(3)
        case "Scratch": return .double(state.withLock { $0.scratch })
        default: throw BusError.invalidArgs("no property \(property)")
        }
    }

    func set(property: String, value: BusValue, sender: String) throws {
        switch (property, value) {
        case ("Name", .string("forbidden")):
            throw BusError("org.lensd.Test1.Error.InvalidArgument", "That name is not allowed")
        case ("Name", .string(let name)):
            state.withLock { $0.name = name; $0.lastSetter = sender }
        case ("Scratch", .double(let scratch)):
            state.withLock { $0.scratch = scratch }
        default:
            throw BusError.invalidArgs("cannot set \(property)")
        }
    }
}
