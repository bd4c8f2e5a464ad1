import LensBus
import XCTest

/// An object that unexports itself from inside its own handler, as a session's Close() does.
private final class SelfClosing: BusInterface {
    var registration: (any Cancellable)?
    let interface = InterfaceDescription(name: "org.lensd.Closing1", methods: [.init("Close")])

    func call(_ call: MethodCall) -> MethodResult {
        registration?.cancel()
        registration = nil
        return .reply([])
    }

    func get(property: String, sender: String) throws -> BusValue { throw BusError.invalidArgs(property) }
    func set(property: String, value: BusValue, sender: String) throws { throw BusError.invalidArgs(property) }
}

private final class Described: BusInterface {
    let interface: InterfaceDescription
    let result: MethodResult

    init(_ interface: InterfaceDescription, result: MethodResult = .reply([])) {
        self.interface = interface
        self.result = result
    }

    func call(_ call: MethodCall) -> MethodResult { result }
    func get(property: String, sender: String) throws -> BusValue { .string("") }
    func set(property: String, value: BusValue, sender: String) throws {}
}

final class ExportTests: BusTestCase {
    /// Exports and (on success) at once unexports, on the loop thread where registrations live.
    private func export(_ interface: InterfaceDescription, at path: String = "/x") throws {
        try server.onLoop { connection in _ = try connection.export(Described(interface), at: path) }
    }

    func testIncompleteArgumentNamesAreRejected() {
        let method = InterfaceDescription.Method(name: "M", inSignature: "ss", inNames: ["only"], outSignature: "")
        XCTAssertThrowsError(try export(InterfaceDescription(name: "org.lensd.Bad1", methods: [method]))) { error in
            XCTAssertTrue((error as? BusError)?.message.contains("name every argument or none") ?? false)
        }
    }

    func testMalformedSignatureIsRejected() {
        let property = InterfaceDescription.Property(name: "P", signature: "a{vs}")
        XCTAssertThrowsError(try export(InterfaceDescription(name: "org.lensd.Bad1", properties: [property])))
    }

    func testInvalidMemberNameIsRejectedBySdBus() {
        XCTAssertThrowsError(try export(InterfaceDescription(name: "org.lensd.Bad1", methods: [.init("not-a-name")])))
    }

    /// dbus-daemon disconnects a peer that sends an invalid error name; the daemon must survive.
    func testInvalidErrorNameStillAnswersTheCaller() throws {
        let registration = try server.onLoop { connection in
            LoopBox(try connection.export(Described(InterfaceDescription(name: "org.lensd.Misnamed1", methods: [.init("M")]),
                                                    result: .error(BusError("NotAnErrorName", "oops"))), at: "/misnamed"))
        }
        defer { try? server.onLoop { _ in registration.value.cancel() } }
        XCTAssertThrowsError(try client.call(destination: serverName, path: "/misnamed", interface: "org.lensd.Misnamed1",
                                             member: "M", timeout: .seconds(5))) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.Failed")
            XCTAssertTrue((error as? BusError)?.message.contains("NotAnErrorName") ?? false, "\(error)")
        }
        XCTAssertEqual(try callService("Echo", [.string("still connected")]), [.string("still connected")])
    }

    func testSameInterfaceTwiceAtOnePathIsRejected() throws {
        XCTAssertThrowsError(try server.onLoop { connection in
            _ = try connection.export(try TestService(), at: TestService.path)
        })
    }

    func testObjectCanUnexportItselfFromItsHandler() throws {
        try server.onLoop { connection in
            let object = SelfClosing()
            object.registration = try connection.export(object, at: "/closing")
        }
        let call = { try self.client.call(destination: self.serverName, path: "/closing",
                                          interface: "org.lensd.Closing1", member: "Close") }
        XCTAssertEqual(try call(), [])
        XCTAssertThrowsError(try call()) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.UnknownObject")
        }
    }

    func testCancelledExportNoLongerAnswers() throws {
        let registration = try server.onLoop { connection in
            LoopBox(try connection.export(try TestService(), at: "/temporary"))
        }
        XCTAssertEqual(try client.call(destination: serverName, path: "/temporary", interface: TestService.name,
                                       member: "Echo", arguments: [.string("a")]), [.string("a")])
        try server.onLoop { _ in registration.value.cancel() }
        XCTAssertThrowsError(try client.call(destination: serverName, path: "/temporary", interface: TestService.name,
                                             member: "Echo", arguments: [.string("a")]))
    }
}
