import C2PA
import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Location through a real gpsd fed from the repository's NMEA logs: the capture gate, its
/// signals and properties, and what the signed photo records.
class LocationTestCase: LensdTestCase {
    var feeder: GpsdNMEAFeeder!
    var gpsd: GpsdProcess!
    var logName: String { "hold-3d-4m.nmea" }
    var policy: String { "required" }

    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", policy, "--gpsd", "127.0.0.1:\(gpsd.port)"]
    }

    override func prepare() throws {
        feeder = try GpsdNMEAFeeder(log: try GpsdNMEALog(named: logName))
        gpsd = try GpsdProcess(sourcePort: feeder.port)
        try gpsd.start()
    }

    override func tearDown() {
        super.tearDown()
        gpsd?.kill()
        feeder?.stop()
    }

    func reasons(_ c: TestClient, _ s: String) throws -> [String] {
        try c.get(s, "DisabledReasons").stringArrayValue ?? []
    }

    /// Waits until the session's gate says `enabled`, by signal; the gate signals until then are
    /// history (a session opened disabled hears CaptureDisabled at once), so later waits see only new ones.
    func waitForGate(_ c: TestClient, _ s: String, enabled: Bool, timeout: TimeInterval = 20) throws {
        defer { c.forgetSignals(["CaptureEnabled", "CaptureDisabled"]) }
        if try c.get(s, "CaptureEnabled").boolValue == enabled { return }
        try c.waitForSignal(enabled ? "CaptureEnabled" : "CaptureDisabled", path: s, timeout: timeout)
    }
}

/// The gate with the real gpsd: killed, capture is disabled; back, enabled again. The gate's
/// rules with a fed source (thresholds, LocationChanged's rate, the signals) are LocationGateFlowTests'.
final class LocationGateTests: LocationTestCase {
    /// gpsd killed: disabled for location within 5 s; back: enabled again, lensd not restarted.
    func testGpsdGoingAwayAndComingBack() throws {
        let c = try client()
        let s = try c.openSession(["maximumLocationAccuracy": .double(10)])
        try waitForGate(c, s, enabled: true)
        let killed = Date()
        gpsd.kill(signal: SIGKILL)
        XCTAssertEqual(try c.waitForSignal("CaptureDisabled", path: s, timeout: 5).arguments.first?.stringArrayValue, ["location"])
        XCTAssertLessThan(Date().timeIntervalSince(killed), 5)
        try gpsd.start()
        try c.waitForSignal("CaptureEnabled", path: s, timeout: 20)
    }
}

/// A receiver that falls silent while gpsd lives: the fix goes stale, capture is disabled.
final class LocationStaleFixTests: LocationTestCase {
    override var logName: String { "brief-3d-4m.nmea" }

    func testSilentReceiverMakesTheFixStale() throws {
        let c = try client()
        let s = try c.openSession(["maximumLocationAccuracy": .double(10)])
        try waitForGate(c, s, enabled: true)
        try c.waitForSignal("CaptureDisabled", path: s, timeout: 15)
        XCTAssertEqual(try reasons(c, s), ["location"])
        XCTAssertEqual(try c.get(s, "Location").vardictValue ?? ["x": .bool(true)], [:])
        XCTAssertTrue(gpsd.isRunning)
    }
}

/// `never`: no location in photos and no connection to gpsd, even with one running.
final class LocationNeverTests: LocationTestCase {
    override var policy: String { "never" }

    func testNeverRecordsNoLocationAndDoesNotConnect() throws {
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        XCTAssertEqual(try reasons(c, s), [])
        let photo = try capture(c, s)
        let anchor = try c.trustAnchorFile(in: tmp)
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [anchor])
        XCTAssertNil(verdict.metadata["c2pa.metadata"]?["exif:GPSLatitude"])
        let connections = try runProcess(["ss", "-Htnp", "state", "established", "( dport = :\(gpsd.port) )"])
        XCTAssertFalse(String(decoding: connections.stdout, as: UTF8.self).contains("pid=\(daemon.pid),"),
                       String(decoding: connections.stdout, as: UTF8.self))
    }
}

/// `optional` without gpsd: capture works and the photo carries no location.
final class LocationOptionalTests: LensdTestCase {
    func testOptionalWithoutGpsdCapturesWithoutLocation() throws {
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        let photo = try capture(c, s)
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [try c.trustAnchorFile(in: tmp)])
        XCTAssertNil(verdict.metadata["c2pa.metadata"]?["exif:GPSLatitude"])
        XCTAssertNotNil(verdict.metadata["c2pa.metadata"]?["exif:DateTimeOriginal"])
    }
}

/// The fix current at capture goes into the photo, as the log has it.
final class LocationInPhotoTests: LocationTestCase {
    func testPhotoCarriesTheFix() throws {
        let c = try client()
        let s = try c.openSession(["maximumLocationAccuracy": .double(10)])
        try c.call(s, "StartCaptureSession")
        try waitForGate(c, s, enabled: true)
        let photo = try capture(c, s)
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [try c.trustAnchorFile(in: tmp)])
        let metadata = try XCTUnwrap(verdict.metadata["c2pa.metadata"])
        let expected = try XCTUnwrap(try GpsdNMEALog(named: logName).positions.last)
        let latitude = try XCTUnwrap(metadata["exif:GPSLatitude"]?.string.flatMap(VerificationReport.coordinate))
        let longitude = try XCTUnwrap(metadata["exif:GPSLongitude"]?.string.flatMap(VerificationReport.coordinate))
        XCTAssertEqual(latitude, expected.latitude, accuracy: 1e-6)
        XCTAssertEqual(longitude, expected.longitude, accuracy: 1e-6)
        XCTAssertEqual(metadata["exif:GPSAltitude"]?.string, expected.altitudeMSL.map { "\(Int(($0 * 100).rounded()))/100" })
        XCTAssertEqual(metadata["exif:GPSHPositioningError"]?.string, "\(Int((expected.eph * 100).rounded()))/100")
        XCTAssertNotNil(metadata["exif:GPSDateStamp"]?.string)
        XCTAssertNotNil(metadata["exif:GPSTimeStamp"]?.string)
    }
}

extension LensdTestCase {
    /// BeginCapture → PhotoSigned → FetchResult, as root; returns the photo's file.
    func capture(_ c: TestClient, _ s: String) throws -> URL {
        let name = try XCTUnwrap(c.call(s, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: s) { $0.arguments.first?.stringValue == name }
        let reply = try c.call(s, "FetchResult", [.string(name)])
        let fd = try XCTUnwrap(reply.first?.fdValue)
        defer { close(fd) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        let url = tmp.file("\(name).jpg")
        try handle.readToEnd()?.write(to: url)
        return url
    }
}

/// Southern and western hemispheres, both sides of 0/0 and of ±180°, minutes < 10, below sea
/// level: for each place of the log, a photo taken there reads back (in c2pa-python) as the log has it.
final class LocationPlacesTests: LocationTestCase {
    override var logName: String { "places.nmea" }

    override func prepare() throws {
        // 4 epochs/s: each place holds for 1.25 s, time enough to take a photo there.
        feeder = try GpsdNMEAFeeder(log: try GpsdNMEALog(named: logName), epochsPerSecond: 4)
        gpsd = try GpsdProcess(sourcePort: feeder.port)
        try gpsd.start()
    }

    func testEveryPlaceReadsBackAsTheLogHasIt() throws {
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        let anchor = try c.trustAnchorFile(in: tmp)
        for place in try GpsdNMEALog(named: logName).positions {
            try waitUntilLocated(c, s, at: place)
            let photo = try capture(c, s)
            let metadata = try XCTUnwrap(try ReferenceValidator.assertTrusted(photo, anchors: [anchor]).metadata["c2pa.metadata"])
            let latitude = metadata["exif:GPSLatitude"]?.string.flatMap(VerificationReport.coordinate)
            let longitude = metadata["exif:GPSLongitude"]?.string.flatMap(VerificationReport.coordinate)
            XCTAssertEqual(latitude ?? .nan, place.latitude, accuracy: 1e-6, "\(place)")
            XCTAssertEqual(longitude ?? .nan, place.longitude, accuracy: 1e-6, "\(place)")
            let altitude = try XCTUnwrap(place.altitudeMSL)
            XCTAssertEqual(metadata["exif:GPSAltitudeRef"], .number(altitude < 0 ? 1 : 0), "\(place)")
            XCTAssertEqual(metadata["exif:GPSAltitude"]?.string, "\(Int((abs(altitude) * 100).rounded()))/100")
        }
    }

    private func waitUntilLocated(_ c: TestClient, _ s: String, at place: GpsdNMEALog.Position) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let fix = try c.get(s, "Location").vardictValue
            if let lat = fix?["latitude"]?.doubleValue, let lon = fix?["longitude"]?.doubleValue,
               abs(lat - place.latitude) < 1e-7, abs(lon - place.longitude) < 1e-7 { return }
            try c.drain(for: 0.05)
        }
        throw TestToolError("lensd never reported \(place)")
    }
}

/// A 2D fix: the photo records the position and no altitude.
final class LocationTwoDimensionalTests: LocationTestCase {
    override var logName: String { "fix2d.nmea" }

    func testTwoDimensionalFixWritesNoAltitude() throws {
        let c = try client()
        let s = try c.openSession(["maximumLocationAccuracy": .double(100)])
        try c.call(s, "StartCaptureSession")
        try waitForGate(c, s, enabled: true)
        XCTAssertEqual(try c.get(s, "Location").vardictValue?["mode"]?.stringValue, "2d")
        let photo = try capture(c, s)
        let metadata = try XCTUnwrap(try ReferenceValidator.assertTrusted(photo, anchors: [try c.trustAnchorFile(in: tmp)])
            .metadata["c2pa.metadata"])
        XCTAssertNotNil(metadata["exif:GPSLatitude"])
        XCTAssertNil(metadata["exif:GPSAltitude"])
        XCTAssertNil(metadata["exif:GPSAltitudeRef"])
    }
}

/// A fixed camera's declared location, from root's configuration file: recorded as MANUAL.
final class DeclaredLocationTests: LensdTestCase {
    override var daemonArguments: [String] { ["--camera", "synthetic", "--location", "required", "--gpsd", "none"] }
    override var daemonConfiguration: String { "declared-location = -41.2865, 174.7762, 12\n" }

    func testDeclaredLocationIsRecordedAsManual() throws {
        let c = try client()
        let s = try c.openSession(["maximumLocationAccuracy": .double(10)])
        try c.call(s, "StartCaptureSession")
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, [])
        XCTAssertEqual(try c.get(s, "Location").vardictValue?["mode"]?.stringValue, "declared")
        let photo = try capture(c, s)
        let metadata = try XCTUnwrap(try ReferenceValidator.assertTrusted(photo, anchors: [try c.trustAnchorFile(in: tmp)])
            .metadata["c2pa.metadata"])
        XCTAssertEqual(metadata["exif:GPSProcessingMethod"]?.string, "MANUAL")
        XCTAssertEqual(metadata["exif:GPSLatitude"]?.string.flatMap(VerificationReport.coordinate) ?? 0, -41.2865, accuracy: 1e-6)
        XCTAssertEqual(metadata["exif:GPSLongitude"]?.string.flatMap(VerificationReport.coordinate) ?? 0, 174.7762, accuracy: 1e-6)
    }

    /// Only a root-owned file may declare where the camera is; the command line may not.
    func testDeclaredLocationFromTheCommandLineIsRefused() throws {
        daemon.stop()
        let refused = try DaemonUnderTest(bus: bus, arguments: daemonArguments + ["--declared-location", "1,2"],
                                          stateDirectory: daemon.stateDirectory)
        XCTAssertThrowsError(try refused.start(timeout: 5))
        XCTAssertTrue(refused.log.contains("declared-location is only read from a root-owned configuration file"), refused.log)
    }
}

/// `required` with `--gpsd none`: capture stays disabled, and the log says why.
final class LocationRequiredWithoutGpsdTests: LensdTestCase {
    override var daemonArguments: [String] { ["--camera", "synthetic", "--location", "required", "--gpsd", "none"] }

    func testCaptureStaysDisabledAndTheLogSaysWhy() throws {
        let c = try client()
        let s = try c.openSession()
        XCTAssertEqual(try c.get(s, "DisabledReasons").stringArrayValue, ["location"])
        XCTAssertTrue(daemon.log.contains("location is required but gpsd is set to none"), daemon.log)
    }
}
