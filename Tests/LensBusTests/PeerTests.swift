import Glibc
import LensBus
import XCTest

final class PeerTests: BusTestCase {
    func testTrackFiresOnceWhenThePeerCloses() throws {
        let (_, peer) = try makeClient("peer")
        let peerName = peer.uniqueName
        let gone = Locked(0)
        let registration = try server.onLoop { connection in
            LoopBox(try connection.track(peer: peerName) { gone.update { $0 += 1 } })
        }
        peer.close()
        let deadline = ContinuousClock.now + .seconds(10)
        while gone.value == 0, ContinuousClock.now < deadline {
            usleep(5_000)
        }
        usleep(50_000)  // time for a second, wrong call to show up
        XCTAssertEqual(gone.value, 1)
        try server.onLoop { _ in registration.value.cancel() }
    }

    func testTrackingAPeerThatIsAlreadyGoneThrows() throws {
        XCTAssertThrowsError(try server.onLoop { connection in
            _ = try connection.track(peer: ":1.4242") {}
        })
    }

    func testPeerUIDIsTheUIDTheBusReports() throws {
        let clientName = client.uniqueName
        XCTAssertEqual(try server.onLoop { try $0.peerUID(clientName) }, getuid())
        XCTAssertEqual(try server.onLoop { try $0.peerUID(clientName) }, getuid())  // cached
    }

    func testPeerUIDRefusesWellKnownNames() throws {
        XCTAssertThrowsError(try server.onLoop { try $0.peerUID("org.freedesktop.DBus") }) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs")
        }
    }

    func testPeerUIDOfAnUnknownNameFails() throws {
        XCTAssertThrowsError(try server.onLoop { try $0.peerUID(":1.4242") })
    }
}
