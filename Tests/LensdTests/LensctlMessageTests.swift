import Foundation
import LensTestSupport
import XCTest

/// What lensctl says when a new user's command is not quite right, or lensd did not do exactly
/// what was asked (issue 34): one line saying what happened, the documented exit code, nothing
/// half-written.
final class LensctlMessageTests: LensdTestCase {
    /// `-o DIR/` names a directory: a missing one is refused before anything is captured or
    /// fetched (exit 7), never written as a file named DIR; so is the missing folder of `DIR/FILE`.
    func testAMissingDirectoryIsRefusedAndNothingIsWritten() throws {
        let missing = outbox.appendingPathComponent("no-such-folder")
        let captured = try lensctl.expect(7, ["capture", "-o", missing.path + "/"])
        XCTAssertEqual(captured.stderr, "lensctl: no such directory: \(missing.path)/\n")
        XCTAssertEqual(captured.stdout, "")
        XCTAssertEqual(storedPhotos(), [], "a refused target cost a photo")
        let inside = try lensctl.expect(7, ["capture", "-o", missing.appendingPathComponent("photo.jpg").path])
        XCTAssertEqual(inside.stderr, "lensctl: no such directory: \(missing.path)\n")

        let photo = try lensctl.expect(0, ["capture", "-o", outbox.path, "--json"]).stdout
        let name = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(photo.utf8)) as? [String: Any])?["name"] as? String)
        let fetched = try lensctl.expect(7, ["fetch", name, "-o", missing.path + "/"])
        XCTAssertEqual(fetched.stderr, "lensctl: no such directory: \(missing.path)/\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "something was written at \(missing.path)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outbox.path), ["\(name).jpg"])
    }

    /// `-o` with nothing after it (the test's `--bus ADDRESS` follows, as it does after
    /// `lensctl --bus ADDRESS capture -o`) names the missing file, not a stray argument.
    func testAnOptionWithoutItsValueSaysWhatIsMissing() throws {
        for command in [["capture", "-o"], ["fetch", "NAME", "-o"], ["record", "-o"]] {
            XCTAssertEqual(try lensctl.expect(2, command).stderr, "lensctl: -o needs a file name\n", "\(command)")
        }
        XCTAssertEqual(try lensctl.expect(2, ["capture", "--timeout"]).stderr, "lensctl: option --timeout needs a value\n")
        XCTAssertEqual(try lensctl.expect(2, ["capture", "-o", "--json"]).stderr, "lensctl: -o needs a file name\n")
        // An empty name is a usage error before anything is captured, also with --force (issue 35.10).
        for command in [["capture", "-o", ""], ["capture", "-o", "", "--force"], ["record", "-o", ""], ["fetch", "NAME", "-o", ""]] {
            XCTAssertEqual(try lensctl.expect(2, command).stderr, "lensctl: -o needs a file name, not an empty one\n", "\(command)")
        }
        // A value that merely starts with dashes is still a value.
        XCTAssertTrue(try lensctl.expect(2, ["capture", "--zoom", "-0.5"]).stderr.contains("zoom must be"))
        XCTAssertEqual(storedPhotos(), [])
    }

    /// `set` names every value it takes, and says when lensd set the camera's limit instead of
    /// the zoom asked for (lensd clamps rather than refuse).
    func testSetListsItsValuesAndSaysWhenTheZoomWasClamped() throws {
        XCTAssertEqual(try lensctl.expect(2, ["set", "flash", "purple"]).stderr,
                       "lensctl: flash must be off|on|auto|toggle, not purple\n")
        XCTAssertEqual(try lensctl.expect(0, ["set", "zoom", "100"]).stdout, "zoom: 8.00× (the camera's maximum)\n")
        XCTAssertEqual(try lensctl.expect(0, ["set", "zoom", "8"]).stdout, "zoom: 8.00×\n", "8× was asked for")
        XCTAssertEqual(try lensctl.expect(0, ["set", "zoom", "2"]).stdout, "zoom: 2.00×\n")
        XCTAssertEqual(try lensctl.expect(0, ["set", "zoom", "10", "--pinch"]).stdout, "zoom: 8.00× (the camera's maximum)\n")
        let json = try lensctl.expect(0, ["set", "zoom", "100", "--json"]).stdout
        try JSONSchemaCheck.assertValid(json, schema: "set")
    }

    /// Sizes as `df -h` prints them: never the raw byte counts of a gigabyte cap.
    func testResultsShowSizesInHumanUnits() throws {
        try lensctl.expect(0, ["capture", "-o", outbox.path])
        let text = try lensctl.expect(0, ["results"]).stdout
        XCTAssertNil(text.range(of: #"\d{4,} bytes"#, options: .regularExpression), text)
        XCTAssertNotNil(text.range(of: #"  photo  \d+(\.\d)?[KM]  "#, options: .regularExpression), text)
        XCTAssertNotNil(text.range(of: #"usage: 1 of 100 results, \d+(\.\d)?[KM] of 1\.0G \(the oldest"#, options: .regularExpression),
                        text)
        // The human units round up, as df -h does: never less than what is stored.
        let size = try XCTUnwrap(storedPhotos().first.map { try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int })
        let shown = try XCTUnwrap(text.firstMatch(of: /photo  (\d+(?:\.\d)?)([KM])  2/))
        let bytes = Double(shown.1)! * (shown.2 == "K" ? 1024 : 1024 * 1024)
        XCTAssertGreaterThanOrEqual(bytes, Double(try XCTUnwrap(size)))
        XCTAssertLessThan(bytes - Double(try XCTUnwrap(size)), shown.2 == "K" ? 1024 : 104_858)
    }

    /// Without --bus, lensctl reaches lensd on LENSD_BUS (the try shell's), whatever the system bus
    /// is; --bus still wins.
    func testLENSD_BUSIsTheBusWithoutBusOption() throws {
        let nowhere = "unix:path=\(tmp.file("no-such-bus").path)"
        let lensctl = try LensctlRunner.binary
        let reached = try runProcess([lensctl, "status"], env: ["LENSD_BUS": bus.address, "DBUS_SYSTEM_BUS_ADDRESS": nowhere])
        XCTAssertEqual(reached.status, 0, String(decoding: reached.stderr, as: UTF8.self))
        XCTAssertTrue(String(decoding: reached.stdout, as: UTF8.self).contains("Capture: enabled"))
        let overridden = try runProcess([lensctl, "status", "--bus", nowhere], env: ["LENSD_BUS": bus.address])
        XCTAssertEqual(overridden.status, 3, String(decoding: overridden.stderr, as: UTF8.self))
    }

    /// A lensd with what it needs prints no hints.
    func testStatusWithoutProblemsHasNoHints() throws {
        XCTAssertFalse(try lensctl.expect(0, ["status"]).stdout.contains("Hint"))
    }
}

/// A fresh installation with no camera and no gpsd: `status` says why capture is off and how to
/// get going, for a fixed camera and for a try.
final class LensctlStatusHintTests: LensdTestCase {
    private let closed = try? LoopbackPort.Closed()
    private var closedPort: Int { closed?.port ?? 9 }

    override var daemonArguments: [String] { ["--camera", "auto", "--location", "required", "--gpsd", "127.0.0.1:\(closedPort)"] }

    func testStatusPointsAtTheSettingsThatGetCaptureGoing() throws {
        let status = try lensctl.expect(0, ["status"]).stdout
        XCTAssertTrue(status.contains("Capture: disabled (camera: no camera is available, location: gpsd at 127.0.0.1:\(closedPort)"),
                      status)
        let hints = status.split(separator: "\n").filter { $0.hasPrefix("      Hint: ") }
        guard hints.count == 2 else { return XCTFail("two hints expected:\n\(status)") }
        XCTAssertTrue(hints[0].contains("`camera = synthetic` in /etc/lensd/lensd.conf"), status)
        XCTAssertTrue(hints[1].contains("`location = optional`, or `declared-location = LAT,LON`"), status)
        // The JSON stays as its schema says.
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["status", "--json"]).stdout, schema: "status")
    }
}
