import Foundation
import Glibc
import LensBus
@testable import LensDaemon
import LensTestSupport
import XCTest

/// Issue 35.3: a preview whose reader takes no frames is no use of the camera. While another
/// client waits, a claim with only an unread preview is released after claim-idle-timeout, as an
/// idle one is; a preview being read keeps it.
final class UnreadPreviewTests: XCTestCase {
    private var lensd: DaemonHarness!

    override func setUpWithError() throws {
        lensd = try DaemonHarness(["--claim-idle-timeout", "3"])
    }

    override func tearDownWithError() throws {
        try lensd.shutDown()
        lensd = nil
    }

    /// Opens a preview for `holder`; its pipe's read end (the caller's to read or not).
    private func preview(_ holder: HarnessClient, _ session: String) throws -> Int32 {
        try XCTUnwrap(holder.call(session, "OpenPreview", [.vardict([:])]).first?.fdValue)
    }

    private func dropped(_ holder: HarnessClient, _ session: String) throws -> UInt64 {
        try holder.get(session, "PreviewStats").vardictValue?["dropped"]?.uint64Value ?? 0
    }

    func testAnUnreadPreviewDoesNotHoldTheCameraFromAWaiter() throws {
        let holder = lensd.client(), waiter = lensd.client()
        let held = try holder.claimedSession()
        let readEnd = try preview(holder, held)
        defer { close(readEnd) }
        // The pipe is full and the stream drops what the camera offers: its reader reads nothing.
        try lensd.loop.run(until: { (try? self.dropped(holder, held)) ?? 0 >= 30 }, "the unread preview filling its pipe")
        let waiting = try lensd.bus.call(try waiter.openSession(), "WaitForCamera", [.double(60)], from: waiter.name)
        lensd.loop.advance(by: .seconds(3))
        XCTAssertNil(waiting.value, "released before the preview went unread for claim-idle-timeout")
        lensd.loop.advance(by: .seconds(3))
        try lensd.loop.run(until: { waiting.value != nil }, "the waiter getting the camera")
        XCTAssertNoThrow(try waiting.value!.get())
        let failed = try holder.waitForSignal("Failed", path: held)
        XCTAssertEqual(failed.arguments.map(\.stringValue), ["org.lensd.Lens1.Error.Busy", "released: idle while others waited"])
        XCTAssertEqual(try holder.get(held, "PreviewActive").boolValue, false)
    }

    func testAPreviewBeingReadKeepsTheCamera() throws {
        let holder = lensd.client(), waiter = lensd.client()
        let held = try holder.claimedSession()
        let readEnd = try preview(holder, held)
        // Reads until the stream ends (lensd closes its end at shut-down), then closes ours.
        let reading = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while read(readEnd, &buffer, buffer.count) > 0 {}
            close(readEnd)
        }
        reading.start()
        let waiting = try lensd.bus.call(try waiter.openSession(), "WaitForCamera", [.double(20)], from: waiter.name)
        let frames = { try holder.get(held, "PreviewStats").vardictValue?["frames"]?.uint64Value ?? 0 }
        for _ in 0..<4 {
            // Frames read between two looks at the claim, as a viewer reads them.
            let before = try frames()
            try lensd.loop.run(until: { ((try? frames()) ?? 0) > before + 3 }, "the reader taking frames")
            lensd.loop.advance(by: .seconds(3))
            XCTAssertNil(waiting.value, "a claim whose preview is read was released")
        }
        XCTAssertEqual(try holder.get(held, "PreviewActive").boolValue, true)
        XCTAssertEqual(lensd.service.host.machine.holder, 1)
    }
}
