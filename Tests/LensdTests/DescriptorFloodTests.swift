import Foundation
import Glibc
import LensBus
import XCTest

/// Descriptors a member slips into a call lensd does not take (inside options, typed where an
/// option wants a number, in a property write) are closed with the message, whether the call is
/// refused or answered: no member can exhaust lensd's descriptors and stop capture for everyone.
final class DescriptorFloodTests: LensdTestCase {
    func testDescriptorsInOptionsAreClosedWhateverTheAnswer() throws {
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        var pipeFDs: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeFDs), 0)
        defer { close(pipeFDs[0]); close(pipeFDs[1]) }
        let fd = { (index: Int) in BusValue.fd(pipeFDs[index % 2]) }
        let eight = (0..<8).map(fd)
        let unknownKeys = BusValue.vardict(Dictionary(uniqueKeysWithValues: eight.indices.map { ("fd\($0)", eight[$0]) }))
        let calls: [(String, () throws -> Void)] = [
            ("OpenSession with unknown keys", { _ = try c.callManager("OpenSession", [unknownKeys]) }),
            ("OpenSession with persistent typed h", { _ = try c.callManager("OpenSession", [.vardict(["persistent": fd(0)])]) }),
            ("OpenPreview with width typed h", {
                _ = try c.call(s, "OpenPreview", [.vardict(["width": fd(1), "height": .array(elementSignature: "h", eight)])])
            }),
            ("StartFaceAutoCapture with an ah value", {
                _ = try c.call(s, "StartFaceAutoCapture", [.vardict(["minValidFrames": .array(elementSignature: "h", eight)])])
            }),
            ("Set CameraMode to an fd", { try c.set(s, "CameraMode", fd(0)) }),
            ("BeginCapture with descriptors it does not take", { _ = try c.call(s, "BeginCapture", eight) }),
        ]
        // Warm up: a photo (lensd's threads and their descriptors come with the first) and each call once.
        try photo(c, s)
        for (_, call) in calls { _ = try? call() }
        try c.ping()
        let before = try daemonResources().fds
        for _ in 0..<60 {
            for (what, call) in calls { XCTAssertThrowsError(try call(), what) }
        }
        try photo(c, s)
        try c.ping()
        XCTAssertEqual(try daemonResources().fds, before, "lensd's descriptors after 360 calls carrying 8 each")
        XCTAssertEqual(try c.callManager("ListResults").first?.arrayValue?.count, 2, "ListResults still answers")
    }

    private func photo(_ c: TestClient, _ s: String) throws {
        let name = try XCTUnwrap(c.call(s, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: s) { $0.arguments.first?.stringValue == name }
    }
}
