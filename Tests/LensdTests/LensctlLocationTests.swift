import Foundation
import LensClient
import LensTestSupport
import XCTest

/// lensctl with a real gpsd (a 3D fix of 3.99 m, location required): capture says what it is
/// waiting for, times out with exit 5, records the fix when it is good enough; watch prints
/// location events.
final class LensctlLocationTests: LocationTestCase {
    /// Waits, through a session of its own, until lensd has the fix.
    private func waitForFix() throws {
        let camera = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "fix"))
        defer { camera.close() }
        let deadline = Date().addingTimeInterval(20)
        while try camera.captureStatus().location == nil {
            guard Date() < deadline else { throw TestToolError("no fix within 20 s") }
            usleep(50_000)
        }
    }

    func testCaptureSaysWhyItWaitsAndRecordsTheFix() throws {
        try waitForFix()
        let waiting = try lensctl.expect(5, ["capture", "-o", outbox.appendingPathComponent("late.jpg").path,
                                             "--accuracy", "3", "--timeout", "2"], as: TestUsers.member)
        XCTAssertTrue(waiting.stderr.contains("waiting for location: 4 m > 3 m"), waiting.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outbox.appendingPathComponent("late.jpg").path))

        let photo = outbox.appendingPathComponent("located.jpg")
        let captured = try lensctl.expect(0, ["capture", "-o", photo.path, "--accuracy", "10"], as: TestUsers.member)
        let position = try XCTUnwrap(try GpsdNMEALog(named: logName).positions.last)
        XCTAssertTrue(captured.stdout.contains(String(format: "location: %.6f, %.6f ± 4 m", position.latitude, position.longitude)),
                      captured.stdout)
        XCTAssertTrue(captured.stdout.contains("verdict:  Trusted"), captured.stdout)
    }

    func testWatchPrintsLocationEventsThatMatchTheSchema() throws {
        try waitForFix()
        let watched = try lensctl.expect(0, ["watch", "--json", "--count", "1", "--duration", "10"])
        let lines = watched.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, watched.stdout)
        XCTAssertTrue(lines.last?.contains("\"event\":\"LocationChanged\"") ?? false, watched.stdout)
        try JSONSchemaCheck.assertValid(watched.stdout, schema: "watch", lines: true)
    }
}
