import Foundation
import LensBus
@testable import LensDaemon
import LensTestSupport
import XCTest

/// Issue 35.8 in process: a member removed from the group is refused on their next call or
/// property read alike (NotAuthorized, not UnknownObject), and loses their sessions within a second
/// even without a call — on the clock the test moves.
final class MembershipRevocationFlowTests: XCTestCase {
    private var lensd: DaemonHarness!
    private let user = TestUsers.revocable

    override func setUpWithError() throws {
        try TestUsers.ensure()
        try TestUsers.setLensMembership(user, member: true)
        lensd = try DaemonHarness()
    }

    override func tearDownWithError() throws {
        try? TestUsers.setLensMembership(user, member: true)
        try lensd.shutDown()
        lensd = nil
    }

    func testAPropertyReadAfterTheRemovalIsRefusedAsACallIs() throws {
        let member = lensd.client(uid: try TestUsers.uid(user))
        let read = try member.openSession(), called = try member.openSession()
        try TestUsers.setLensMembership(user, member: false)
        XCTAssertThrowsError(try member.get(read, "CaptureEnabled")) {
            XCTAssertEqual($0.shortName, "NotAuthorized")
            XCTAssertTrue("\($0)".contains("no longer in group lens"), "\($0)")
        }
        lensd.loop.run()
        XCTAssertThrowsError(try member.call(called, "StartCaptureSession")) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject") }
        XCTAssertEqual(lensd.bus.exportedPaths, ["/org/lensd/Lens1"], "every session of theirs closed after the answer")
    }

    func testARemovedMemberWhoMakesNoCallLosesTheClaimWithinASecond() throws {
        let member = lensd.client(uid: try TestUsers.uid(user))
        let session = try member.claimedSession()
        try TestUsers.setLensMembership(user, member: false)
        lensd.loop.advance(by: .milliseconds(1100))
        XCTAssertNil(lensd.service.host.machine.holder, "the claim outlived the removal")
        XCTAssertFalse(lensd.bus.exportedPaths.contains(session))
        try lensd.client().claimedSession()
    }
}
