import LensBus
import XCTest

/// Every bus test gets a fresh private dbus-daemon, a server connection on its own loop
/// thread exporting a TestService, and a client connection whose loop the test thread pumps.
class BusTestCase: XCTestCase {
    var bus: PrivateBus!
    var server: ServerThread!
    var service: TestService!
    var clientLoop: EventLoop!
    var client: BusConnection!
    private var exported: (any Cancellable)?

    override func setUpWithError() throws {
        bus = try PrivateBus()
        server = try ServerThread(address: bus.address)
        service = try TestService()
        exported = try server.connection.export(service, at: TestService.path)
        service.connection = server.connection
        server.start()
        clientLoop = try EventLoop()
        client = try BusConnection(.address(bus.address), loop: clientLoop, description: "test-client")
    }

    override func tearDown() {
        client?.close()
        client = nil
        clientLoop = nil
        server?.stop()
        exported = nil
        server = nil
        service = nil
        bus?.stop()
        bus = nil
    }

    var serverName: String { server.connection.uniqueName }

    /// A synchronous call to the TestService from `connection` (the client by default).
    func callService(_ member: String, _ arguments: [BusValue] = [], from connection: BusConnection? = nil) throws -> [BusValue] {
        try (connection ?? client).call(destination: serverName, path: TestService.path, interface: TestService.name,
                                        member: member, arguments: arguments)
    }

    /// Pumps `loop` on the test thread until `condition` holds; false if `timeout` passes first.
    func pump(_ loop: EventLoop, timeout: Duration = .seconds(10), until condition: () -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try loop.runOnce(timeout: .milliseconds(50))
        }
        return true
    }

    /// A second or third client, on its own loop that the test thread pumps.
    func makeClient(_ description: String) throws -> (EventLoop, BusConnection) {
        let loop = try EventLoop()
        return (loop, try BusConnection(.address(bus.address), loop: loop, description: description))
    }
}
