import Glibc
import LensBus
import XCTest

final class ConnectionTests: BusTestCase {
    func testSystemAndSessionAddressesComeFromTheEnvironment() throws {
        // sd-bus reads DBUS_SYSTEM_BUS_ADDRESS / DBUS_SESSION_BUS_ADDRESS, as a service under a
        // private test bus does.
        let saved = (getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) },
                     getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) })
        defer {
            restore("DBUS_SYSTEM_BUS_ADDRESS", saved.0)
            restore("DBUS_SESSION_BUS_ADDRESS", saved.1)
        }
        setenv("DBUS_SYSTEM_BUS_ADDRESS", bus.address, 1)
        setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
        let loop = try EventLoop()
        for address in [BusAddress.system, .session] {
            for description in [nil, "described"] as [String?] {
                let connection = try BusConnection(address, loop: loop, description: description)
                XCTAssertTrue(connection.uniqueName.hasPrefix(":"))
                XCTAssertEqual(try callService("Echo", [.string("env")], from: connection), [.string("env")])
            }
        }
    }

    private func restore(_ name: String, _ value: String?) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }

    func testConnectingToANonexistentBusFails() {
        let loop = try? EventLoop()
        XCTAssertThrowsError(try BusConnection(.address("unix:path=/nonexistent/bus"), loop: loop!))
    }

    func testCallsOnAClosedConnectionFail() throws {
        client.close()
        client.close()  // idempotent
        XCTAssertThrowsError(try callService("Echo", [.string("x")]))
        XCTAssertThrowsError(try client.emitSignal(path: "/x", interface: "org.lensd.X", member: "Y", arguments: []))
    }

    func testAsynchronousCallTimesOut() throws {
        var result: Result<[BusValue], BusError>?
        try client.callAsync(destination: serverName, path: TestService.path, interface: TestService.name,
                             member: "Later", arguments: [.string("slow")], timeout: .milliseconds(1)) { result = $0 }
        XCTAssertTrue(try pump(clientLoop) { result != nil })
        guard case .failure(let error) = result else { return XCTFail("expected a timeout, got \(String(describing: result))") }
        XCTAssertEqual(error.name, "org.freedesktop.DBus.Error.NoReply")
    }

    func testPendingAsynchronousCallIsReleasedWhenTheConnectionCloses() throws {
        final class Witness {}
        weak var witness: Witness?
        do {
            let strong = Witness()
            witness = strong
            try client.callAsync(destination: serverName, path: TestService.path, interface: TestService.name,
                                 member: "Later", arguments: [.string("never read")]) { _ in _ = strong }
        }
        XCTAssertNotNil(witness)
        client.close()
        client = nil  // the bus, and with it the pending call's slot, goes away
        XCTAssertNil(witness)
    }
}
