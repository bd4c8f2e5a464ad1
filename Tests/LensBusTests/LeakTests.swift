import Foundation
import Glibc
import LensBus
import XCTest

final class LeakTests: BusTestCase {
    private func openFDCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// Every path that allocates sd-bus objects or fds, once.
    private func exerciseEveryPath() throws {
        XCTAssertEqual(try callService("Echo", [.string("x")]), [.string("x")])

        let reply = try callService("OpenFile")
        if let fd = reply.first?.fdValue { close(fd) }

        var asyncDone = false
        try client.callAsync(destination: serverName, path: TestService.path, interface: TestService.name,
                             member: "Later", arguments: [.string("y")]) { _ in asyncDone = true }
        XCTAssertTrue(try pump(clientLoop) { asyncDone })

        _ = try? callService("Refuse")
        _ = try? callService("Drop")

        var pings = 0
        let subscription = try client.subscribe(sender: serverName, path: nil, interface: TestService.name,
                                                member: "Ping") { _ in pings += 1 }
        _ = try callService("Emit", [.string(client.uniqueName)])
        XCTAssertTrue(try pump(clientLoop) { pings == 2 })
        subscription.cancel()

        let clientName = client.uniqueName
        try server.onLoop { connection in
            let tracked = try connection.track(peer: clientName) {}
            tracked.cancel()
            let extra = try connection.export(try TestService(), at: "/org/lensd/Extra")
            extra.cancel()
            _ = try connection.peerUID(clientName)
        }

        clientLoop.schedule(after: .zero) {}
        try clientLoop.runOnce(timeout: .milliseconds(1))
    }

    func testFiftyRoundsLeaveNoFDGrowth() throws {
        for _ in 0..<5 {
            try exerciseEveryPath()  // warm up: lazily created threads and sockets
        }
        let before = try openFDCount()
        for _ in 0..<50 {
            try exerciseEveryPath()
        }
        XCTAssertEqual(try openFDCount(), before)
    }

    func testConnectionsAndLoopsCloseTheirFDs() throws {
        let before = try openFDCount()
        for _ in 0..<20 {
            let (loop, connection) = try makeClient("short-lived")
            _ = try connection.call(destination: serverName, path: TestService.path, interface: TestService.name,
                                    member: "Echo", arguments: [.string("z")])
            withExtendedLifetime(loop) {}
        }
        XCTAssertEqual(try openFDCount(), before)
    }
}
