import LensBus
import XCTest

final class SignalTests: BusTestCase {
    func testUnicastSignalReachesOnlyItsDestinationWhileBroadcastReachesAll() throws {
        var received: [SignalMessage] = []
        let subscription = try client.subscribe(sender: serverName, path: TestService.path,
                                                interface: TestService.name, member: "Ping") { received.append($0) }
        let (bystanderLoop, bystander) = try makeClient("bystander")
        var overheard: [SignalMessage] = []
        let bystanderSubscription = try bystander.subscribe(sender: serverName, path: nil, interface: TestService.name,
                                                            member: "Ping") { overheard.append($0) }

        // Emit sends the unicast first, then the broadcast; one sender's messages keep their
        // order, so once the bystander has the broadcast, any unicast leak would have arrived.
        _ = try callService("Emit", [.string(client.uniqueName)])
        XCTAssertTrue(try pump(clientLoop) { received.count == 2 })
        XCTAssertTrue(try pump(bystanderLoop) { !overheard.isEmpty })

        XCTAssertEqual(received.map(\.arguments), [[.string("for \(client.uniqueName)"), .bool(true)],
                                                   [.string("for everyone"), .bool(false)]])
        XCTAssertEqual(received.first?.sender, serverName)
        XCTAssertEqual(received.first?.path, TestService.path)
        XCTAssertEqual(received.first?.interface, TestService.name)
        XCTAssertEqual(received.first?.member, "Ping")
        XCTAssertEqual(overheard.map(\.arguments), [[.string("for everyone"), .bool(false)]])
        withExtendedLifetime((subscription, bystanderSubscription)) {}
    }

    func testCancelledSubscriptionStopsDelivery() throws {
        var count = 0
        let subscription = try client.subscribe(sender: nil, path: nil, interface: TestService.name, member: "Ping") { _ in
            count += 1
        }
        _ = try callService("Emit", [.string(client.uniqueName)])
        XCTAssertTrue(try pump(clientLoop) { count == 2 })
        subscription.cancel()
        subscription.cancel()  // idempotent

        var marker = false
        let markerSubscription = try client.subscribe(sender: nil, path: nil, interface: TestService.name, member: "Ping") { _ in
            marker = true
        }
        _ = try callService("Emit", [.string(client.uniqueName)])
        XCTAssertTrue(try pump(clientLoop) { marker })
        XCTAssertEqual(count, 2)
        withExtendedLifetime(markerSubscription) {}
    }

    func testSubscriptionOnAWellKnownSenderName() throws {
        try server.onLoop { try $0.requestName("org.lensd.Test1") }
        var received: [SignalMessage] = []
        let subscription = try client.subscribe(sender: "org.lensd.Test1", path: TestService.path,
                                                interface: TestService.name, member: "Ping") { received.append($0) }
        _ = try callService("Emit", [.string(client.uniqueName)])
        XCTAssertTrue(try pump(clientLoop) { received.count == 2 })
        withExtendedLifetime(subscription) {}
    }

    func testUnicastPropertiesChangedCarriesTheChangedValues() throws {
        var received: [SignalMessage] = []
        let subscription = try client.subscribe(sender: serverName, path: TestService.path,
                                                interface: "org.freedesktop.DBus.Properties",
                                                member: "PropertiesChanged") { received.append($0) }
        let target = client.uniqueName
        try server.onLoop { connection in
            try connection.emitPropertiesChanged(path: TestService.path, interface: TestService.name,
                                                 changed: ["Name": .string("new"), "Counter": .uint32(4)],
                                                 destination: target)
        }
        XCTAssertTrue(try pump(clientLoop) { !received.isEmpty })
        let arguments = try XCTUnwrap(received.first?.arguments)
        XCTAssertEqual(arguments.count, 3)
        XCTAssertEqual(arguments[0], .string(TestService.name))
        XCTAssertEqual(arguments[1].vardictValue, ["Name": .string("new"), "Counter": .uint32(4)])
        XCTAssertEqual(arguments[2], .stringArray([]))
        withExtendedLifetime(subscription) {}
    }

    func testSignalWithTheWrongTypesIsStillDeliveredAsSent() throws {
        // Signals are not checked against the vtable: what is sent is what arrives.
        var received: [SignalMessage] = []
        let subscription = try client.subscribe(sender: serverName, path: nil, interface: nil, member: "Odd") {
            received.append($0)
        }
        try server.onLoop { connection in
            try connection.emitSignal(path: "/x", interface: "org.lensd.Other", member: "Odd",
                                      arguments: [.vardict([:]), .bytes([])])
        }
        XCTAssertTrue(try pump(clientLoop) { !received.isEmpty })
        XCTAssertEqual(received.first?.arguments, [.vardict([:]), .bytes([])])
        withExtendedLifetime(subscription) {}
    }
}
