import Foundation
import LensTestSupport
import XCTest

/// What the commands print for people, and that the settings they make stick in lensd.
final class LensctlCommandTests: LensdTestCase {
    func testStatusAndDevices() throws {
        let status = try lensctl.expect(0, ["status"], as: TestUsers.member).stdout
        XCTAssertTrue(status.contains("Version: 0.1.0"), status)
        XCTAssertTrue(status.contains("Camera: back: lensd synthetic camera (synthetic:back), flash off, zoom 1.0× of 8.0× (digital)"), status)
        XCTAssertTrue(status.contains("Enrollment: enrolled, certificate valid until "), status)
        XCTAssertTrue(status.contains("Capture: enabled"), status)
        let devices = try lensctl.expect(0, ["devices"]).stdout.split(separator: "\n")
        XCTAssertEqual(devices.map { $0.split(separator: "\t")[1] }, ["back", "front"])
        // Each camera has a path of its own, so `set camera PATH` can tell them apart.
        XCTAssertEqual(devices.map { $0.split(separator: "\t")[0] }, ["synthetic:back", "synthetic:front"])
        // Options may also come before the command, as scripts write them.
        let early = try runProcess([try LensctlRunner.binary, "--bus", bus.address, "--json", "devices"])
        XCTAssertEqual(early.status, 0, String(decoding: early.stderr, as: UTF8.self))
        try JSONSchemaCheck.assertValid(String(decoding: early.stdout, as: UTF8.self), schema: "devices")
    }

    /// `--version` prints the version (exit 0), the same the daemon reports.
    func testVersionIsTheDaemons() throws {
        let version = try runProcess([try LensctlRunner.binary, "--version"])
        XCTAssertEqual(version.status, 0, String(decoding: version.stderr, as: UTF8.self))
        let daemon = try XCTUnwrap(try client().get(TestClient.managerPath, "Version", interface: TestClient.manager).stringValue)
        XCTAssertEqual(String(decoding: version.stdout, as: UTF8.self), "lensctl \(daemon)\n")
    }

    /// Camera settings outlive lensctl's session (each camera keeps its own); the next
    /// capture uses them.
    func testSettingsStickForTheNextCapture() throws {
        XCTAssertEqual(try lensctl.expect(0, ["set", "camera", "front"]).stdout, "camera: front: lensd synthetic camera (synthetic:front)\n")
        XCTAssertEqual(try lensctl.expect(0, ["set", "flash", "on"]).stdout, "flash: on\n")
        XCTAssertEqual(try lensctl.expect(0, ["set", "flash", "toggle"]).stdout, "flash: auto\n")
        XCTAssertEqual(try lensctl.expect(0, ["set", "zoom", "2"]).stdout, "zoom: 2.00×\n")
        XCTAssertEqual(try lensctl.expect(0, ["set", "zoom", "1.25", "--pinch"]).stdout, "zoom: 2.50×\n")
        XCTAssertEqual(try lensctl.expect(0, ["set", "focus", "0.25", "0.5"]).stdout, "focus: 0.250, 0.500\n")
        // Settings of the command's own session would end with it: refused, saying what to use.
        XCTAssertTrue(try lensctl.expect(2, ["set", "mode", "video"]).stderr.contains("use lensctl record for video"))
        XCTAssertTrue(try lensctl.expect(2, ["set", "accuracy", "50"]).stderr.contains("use lensctl capture --accuracy METERS"))
        let status = try lensctl.expect(0, ["status"]).stdout
        XCTAssertTrue(status.contains("Camera: front: lensd synthetic camera (synthetic:front), flash auto, zoom 2.5× of 8.0×"), status)

        let photo = outbox.appendingPathComponent("zoomed.jpg")
        try lensctl.expect(0, ["capture", "-o", photo.path])
        let verdict = try ReferenceValidator.verdict(file: photo)
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["exif:DigitalZoomRatio"]?.string, "250/100")
    }

    /// Another session holds the camera: set fails with lensd's sentence, exit 1; capture waits
    /// for it, saying who holds it, and gives up at its --timeout (exit 5) with no photo.
    func testBusyCameraNamesItsHolder() throws {
        let holder = try peer(["open", "start", "hang"], as: TestUsers.secondMember)
        defer { holder.kill() }
        try holder.waitForLine("reply start")
        let busy = try lensctl.expect(1, ["set", "flash", "on"], as: TestUsers.member)
        XCTAssertTrue(busy.stderr.contains(TestUsers.secondMember), busy.stderr)
        let photo = outbox.appendingPathComponent("busy.jpg")
        let waited = try lensctl.expect(5, ["capture", "--timeout", "1", "-o", photo.path], as: TestUsers.member)
        XCTAssertTrue(waited.stderr.contains("waiting for the camera: in use by \(TestUsers.secondMember)"), waited.stderr)
        XCTAssertTrue(waited.stderr.contains("gave up after 1 s waiting for the camera"), waited.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: photo.path))
    }

    func testWatchPrintsTheStatusLine() throws {
        let watched = try lensctl.expect(0, ["watch", "--count", "0"]).stdout
        XCTAssertTrue(watched.hasSuffix(" Status capture enabled; location no fix\n"), watched)
        XCTAssertTrue(try lensctl.expect(0, ["trust-anchor"]).stdout.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    }
}
