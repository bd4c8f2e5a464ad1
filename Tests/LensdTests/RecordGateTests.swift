import Foundation
import LensClient
import LensTestSupport
import XCTest

/// `lensctl record` waits for the capture gate as capture does, with the same --accuracy and
/// --timeout (a real gpsd with a 3D fix of 3.99 m, location required).
final class RecordGateTests: LocationTestCase {
    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-size", "320x240"] }

    func testRecordWaitsForAGoodEnoughFix() throws {
        let camera = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "fix"))
        let deadline = Date().addingTimeInterval(20)
        while try camera.captureStatus().location == nil {
            guard Date() < deadline else { throw TestToolError("no fix within 20 s") }
            usleep(50_000)
        }
        camera.close()
        let late = outbox.appendingPathComponent("late.mp4")
        let waiting = try lensctl.expect(5, ["record", "--duration", "1", "--accuracy", "3", "--timeout", "2", "-o", late.path],
                                         as: TestUsers.member)
        XCTAssertTrue(waiting.stderr.contains("waiting for location: 4 m > 3 m"), waiting.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: late.path))
        let clip = outbox.appendingPathComponent("located.mp4")
        let recorded = try lensctl.expect(0, ["record", "--duration", "1", "--accuracy", "10", "--camera", "front", "-o", clip.path],
                                          as: TestUsers.member)
        XCTAssertTrue(recorded.stdout.contains("signed, "), recorded.stdout)
        let verdict = try ReferenceValidator.verdict(file: clip)
        XCTAssertNotNil(verdict.metadata["c2pa.metadata"]?["exif:GPSLatitude"], "the fix is recorded")
        // --camera was for that video only.
        XCTAssertTrue(try lensctl.expect(0, ["status"]).stdout.contains("Camera: back: "))
    }
}
