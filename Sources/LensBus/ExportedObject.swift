import CSystemd

/// What an exported object's slot carries as userdata: the Swift object, its description and
/// the C vtable built from it. Released (and the vtable freed) when sd-bus destroys the slot.
final class ExportedObject {
    let object: BusInterface
    let interface: InterfaceDescription
    let vtable: VTable
    private let connection: BusConnection
    private let outSignatures: [String: String]
    private let propertySignatures: [String: String]

    init(_ object: BusInterface, connection: BusConnection) throws {
        self.object = object
        self.connection = connection
        interface = object.interface
        vtable = try VTable(interface)
        outSignatures = Dictionary(interface.methods.map { ($0.name, $0.outSignature) }, uniquingKeysWith: { $1 })
        propertySignatures = Dictionary(interface.properties.map { ($0.name, $0.signature) }, uniquingKeysWith: { $1 })
    }

    /// Always answers the call itself (returning 1), so direct and deferred replies take the
    /// same path and an unsendable answer still becomes an error reply.
    func handleCall(_ request: Message) -> Int32 {
        let member = request.member
        let outSignature = outSignatures[member] ?? ""
        let reply: Reply
        do {
            // Borrowed: the request message closes every fd it carries after the call, whatever its outcome.
            let arguments = try request.readAll(descriptors: .borrowed)
            let answering = MessageAnswering(loop: connection.loop, request: connection.loop.confine(request),
                                             declaredSignature: outSignature)
            let call = MethodCall(sender: request.sender, path: request.path, member: member, arguments: arguments,
                                  answering: answering)
            switch object.call(call) {
            case .reply(let values): reply = .values(values)
            case .error(let error): reply = .error(error)
            case .deferred: return 1
            }
        } catch {
            reply = .error(BusError(reporting: error))
        }
        reply.send(to: request, declaredSignature: outSignature)
        return 1
    }

    func getProperty(_ name: String, bus: OpaquePointer, into reply: OpaquePointer,
                     returnedError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        do {
            let value = try object.get(property: name, sender: Self.currentSender(bus))
            let declared = propertySignatures[name] ?? ""
            guard value.signature == declared else {
                throw BusError.failed("property \(name) is '\(declared)' but the object returned '\(value.signature)'")
            }
            try MessageWriter(reply).append(value)
            return 1
        } catch {
            return BusError(reporting: error).fill(returnedError)
        }
    }

    func setProperty(_ name: String, bus: OpaquePointer, from value: OpaquePointer,
                     returnedError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        do {
            let newValue = try MessageReader.readOne(value)
            try object.set(property: name, value: newValue, sender: Self.currentSender(bus))
            return 1
        } catch {
            return BusError(reporting: error).fill(returnedError)
        }
    }

    /// Property callbacks get no message; the Get/Set call being dispatched is the current one.
    private static func currentSender(_ bus: OpaquePointer) -> String {
        guard let message = sd_bus_get_current_message(bus), let sender = sd_bus_message_get_sender(message) else {
            return ""
        }
        return String(cString: sender)
    }
}
