import Foundation
import LensBus
import LensCore
@testable import LensDaemon
import LensTestSupport
import XCTest

/// Issue 35.5: a small disk is shared. The state directory is a 16 MiB tmpfs, filled by the test
/// until 600 KB are free above min-free-bytes. One member photographs until lensd refuses them
/// their share; another member can still photograph, and their recording stops at what is left
/// of theirs, kept and signed.
final class FreeSpaceShareFlowTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var disk: SmallDisk?
    private var lensd: DaemonHarness?
    private var state: URL { tmp.file("state") }
    private let minimumFree: Int64 = 2 << 20

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-share")
        disk = try SmallDisk(at: state, size: "16m")
    }

    override func tearDownWithError() throws {
        defer {
            disk = nil
            tmp = nil
        }
        try lensd?.shutDown()
        lensd = nil
    }

    func testNoMemberTakesMoreThanHalfOfTheFreeSpaceAndAnotherCanStillCapture() throws {
        let started = try DaemonHarness(["--state-dir", state.path, "--min-free-bytes", "\(minimumFree)"])
        lensd = started
        try fill(leavingAboveMinimum: 600_000)
        let first = started.client(uid: try TestUsers.uid(TestUsers.member))
        let second = started.client(uid: try TestUsers.uid(TestUsers.secondMember))
        let share = try XCTUnwrap(started.store.freeSpaceShare(of: try TestUsers.uid(TestUsers.member)))
        XCTAssertEqual(share.used, 0)

        // The first member photographs until refused: never much past half of what was free.
        let s1 = try first.claimedSession()
        var refusal: BusError?
        for _ in 0..<200 where refusal == nil {
            do {
                let name = try first.call(s1, "BeginCapture").first?.stringValue
                _ = try first.waitForSignal("PhotoSigned", path: s1) { $0.arguments.first?.stringValue == name }
            } catch let error as BusError { refusal = error }
        }
        let refused = try XCTUnwrap(refusal, "a member is refused once over their share")
        XCTAssertEqual(refused.name, "org.lensd.Lens1.Error.CaptureDisabled")
        XCTAssertTrue(refused.message.contains("your share of the free space"), refused.message)
        // Each file costs the disk a little more than its bytes: the share shrinks as it fills.
        let now = try XCTUnwrap(started.store.freeSpaceShare(of: try TestUsers.uid(TestUsers.member)))
        XCTAssertLessThanOrEqual(now.room, 0, "refused only at their share")
        XCTAssertGreaterThan(now.used, share.share * 3 / 4, "which is about half of what was free")
        XCTAssertLessThan(now.used, share.share + 100_000, "and not far past it (one photo)")
        XCTAssertEqual(try first.get(s1, "DisabledReasons").stringArrayValue, [], "capture is not disabled for all")
        try first.call(s1, "StopCaptureSession")

        // The other member: a photo, then a recording that stops at their share, kept and signed.
        let s2 = try second.claimedSession()
        _ = try second.photo(in: s2)
        try second.set(s2, "CameraMode", .string("video"))
        try second.call(s2, "StartVideoCapture")
        let signed = try second.waitForSignal("VideoSigned", path: s2, timeout: .seconds(120))
        XCTAssertEqual(signed.arguments.last?.vardictValue?["limit"]?.stringValue, "min-free-bytes")
        let name = try XCTUnwrap(signed.arguments.first?.stringValue)
        XCTAssertNoThrow(try started.store.result(name: name, uid: try TestUsers.uid(TestUsers.secondMember)))
        let after = try XCTUnwrap(started.store.freeSpaceShare(of: try TestUsers.uid(TestUsers.secondMember)))
        XCTAssertLessThanOrEqual(after.room, 200_000, "the recording took most of what was left of the share")
        XCTAssertGreaterThan(after.freeAboveMinimum, 0, "and the disk is not full")
    }

    func testOverItsShareAMemberCannotStartARecording() throws {
        let (c, session) = try memberOverTheShare()
        try c.set(session, "CameraMode", .string("video"))
        try assertRefusedForTheShare { try c.call(session, "StartVideoCapture") }
    }

    func testOverItsShareAMemberCannotStartAFaceAutoCapture() throws {
        let (c, session) = try memberOverTheShare()
        try assertRefusedForTheShare { try c.call(session, "StartFaceAutoCapture", [.vardict([:])]) }
    }

    /// lensd started on the filled disk, and a result of the member's that takes more than half
    /// of what is free; the member's claimed session.
    private func memberOverTheShare() throws -> (HarnessClient, String) {
        let started = try DaemonHarness(["--state-dir", state.path, "--min-free-bytes", "\(minimumFree)"])
        lensd = started
        try fill(leavingAboveMinimum: 600_000)
        let uid = try TestUsers.uid(TestUsers.member)
        _ = try started.store.store(parts: [[UInt8](repeating: 0xA5, count: 400_000)], name: UUID().uuidString.lowercased(), uid: uid,
                                    mime: "image/jpeg", fileExtension: "jpg")
        XCTAssertLessThanOrEqual(try XCTUnwrap(started.store.freeSpaceShare(of: uid)).room, 0)
        let c = started.client(uid: uid)
        return (c, try c.claimedSession())
    }

    private func assertRefusedForTheShare(_ call: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertThrowsError(try call(), file: file, line: line) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.lensd.Lens1.Error.CaptureDisabled", file: file, line: line)
            XCTAssertTrue((error as? BusError)?.message.contains("your share of the free space") ?? false, "\(error)", file: file, line: line)
        }
    }

    /// A file that leaves `bytes` free above min-free-bytes.
    private func fill(leavingAboveMinimum bytes: Int64) throws {
        var status = statvfs()
        XCTAssertEqual(statvfs(state.path, &status), 0)
        let available = Int64(status.f_bavail) * Int64(status.f_frsize)
        let filler = available - minimumFree - bytes
        XCTAssertGreaterThan(filler, 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: state.appendingPathComponent("filler").path,
                                                     contents: Data(count: Int(filler))))
    }
}
