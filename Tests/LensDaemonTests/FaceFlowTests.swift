import Foundation
import LensBus
import LensCamera
import LensCore
@testable import LensDaemon
import LensTestSupport
import XCTest

/// Face auto-capture in process: the synthetic cameras play a scripted sequence of face_scenes.py's
/// frames, each file with its index drawn in a corner (face_sequence.py), so every FaceDetected
/// can be checked against the frame it names and the signed selfie shows which frame it is. The
/// cameras are SteppedCameras: the script's frames are camera time at 30 fps (each step 2 s, the
/// centred frames 5 s, the window 1 s), made as fast as the detector takes them, a few ahead of it.
final class FaceFlowTests: DaemonTestCase {
    static let script = ["no_face:60", "far:60", "off_centre:60", "close:60", "dark:60", "centred:150"]

    /// The script's frames (in memory: the files are read once) and the scenario of each, by index.
    private static let scripted = Result { () throws -> (frames: SyntheticFrames, scenarios: [String]) in
        let tmp = try TemporaryDirectory(prefix: "lensd-face-script")
        let scenarios = try FaceScript.write(script, to: tmp.file("frames"), scenes: tmp.file("scenes"))
        return (try SyntheticFrames(directory: tmp.file("frames").path), scenarios)
    }

    private var scenarios: [String] = []

    override func makeDaemon() throws -> DaemonHarness {
        let (frames, scenarios) = try Self.scripted.get()
        self.scenarios = scenarios
        let pace = FramePace()
        let lensd = try DaemonHarness(cameras: [CameraPosition.back, .front].map { SteppedCamera(position: $0, frames: frames, pace: pace) })
        pace.follow(lensd)
        return lensd
    }

    private func scenario(of detection: [String: BusValue]) throws -> String {
        let frame = try XCTUnwrap(detection["frame"]?.uint64Value, "\(detection)")
        return scenarios[Int(frame % UInt64(scenarios.count))]
    }

    private func detections(_ c: HarnessClient) -> [[String: BusValue]] {
        c.signals.filter { $0.member == "FaceDetected" }.compactMap { $0.arguments.first?.vardictValue }
    }

    func testAFullAutoCaptureFollowsTheScriptAndSignsTheChosenFrame() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
        try c.call(session, "StartFaceAutoCapture", [.vardict([:])])
        // The component's default: the front camera.
        let device = try c.waitForSignal("DeviceChanged", path: session)
        XCTAssertEqual(device.arguments.first?.vardictValue?["position"]?.stringValue, "front")
        let finished = try c.waitForSignal("FaceAutoCaptureFinished", path: session, timeout: .seconds(60))
        let name = try XCTUnwrap(finished.arguments.first?.stringValue)
        let chosen = try XCTUnwrap(finished.arguments.last?.vardictValue)

        // Every processed frame got its scenario's instruction, and each step of the script was seen.
        let seen = detections(c)
        for detection in seen {
            XCTAssertEqual(detection["instruction"]?.stringValue, FaceScript.instructions[try scenario(of: detection)], "\(detection)")
            XCTAssertEqual(detection["face"]?.boolValue, try scenario(of: detection) != "no_face", "\(detection)")
        }
        let steps = try seen.map { try scenario(of: $0) }
        XCTAssertEqual(steps.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } },
                       ["no_face", "far", "off_centre", "close", "dark", "centred"], "\(steps)")
        XCTAssertEqual(c.signals.filter { $0.member == "CandidateSelectionStarted" }.count, 1)

        // The chosen frame is a centred one the detector scored valid, the rectangle normalized.
        XCTAssertEqual(try scenario(of: chosen), "centred")
        XCTAssertEqual(chosen["valid"]?.boolValue, true)
        XCTAssertTrue(seen.contains { $0["frame"]?.uint64Value == chosen["frame"]?.uint64Value && $0["valid"]?.boolValue == true })
        guard case .structure(let edges)? = chosen["rectangle"] else { return XCTFail("no rectangle: \(chosen)") }
        let box = edges.compactMap(\.doubleValue)
        XCTAssertEqual(box.count, 4)
        XCTAssertTrue(box.allSatisfy { (0...1).contains($0) } && box[0] < box[2] && box[1] < box[3], "\(box)")

        // Then the photo path, under that name; the signed file is exactly the chosen frame.
        let initial = try c.waitForSignal("InitialCaptureFinished", path: session)
        XCTAssertEqual(initial.arguments.first?.stringValue, name)
        let signed = try c.waitForSignal("PhotoSigned", path: session)
        XCTAssertEqual(signed.arguments.first?.stringValue, name)
        let photo = try lensd.storedFile(name)
        XCTAssertEqual(try FaceScript.index(drawnIn: photo), try XCTUnwrap(chosen["frame"]?.uint64Value) % UInt64(scenarios.count))
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [try lensd.trustAnchorFile()])
        XCTAssertEqual(verdict.actions.first?.digitalSourceType,
                       "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia")
        try ConformanceRubric.assertConformant(photo, anchors: [try lensd.trustAnchorFile()], capturedMedia: false)
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
    }

    func testRequestFaceCaptureTakesTheNextFrameWhateverItShows() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        XCTAssertThrowsError(try c.call(session, "RequestFaceCapture")) { XCTAssertEqual($0.shortName, "NotStarted") }
        try c.call(session, "StartFaceAutoCapture", [.vardict(["camera_facing": .string("back")])])
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "searching")
        try c.waitForSignal("FaceDetected", path: session)
        try c.call(session, "RequestFaceCapture")
        let finished = try c.waitForSignal("FaceAutoCaptureFinished", path: session)
        let name = finished.arguments.first?.stringValue
        let signed = try c.waitForSignal("PhotoSigned", path: session)
        XCTAssertEqual(signed.arguments.first?.stringValue, name)
        XCTAssertFalse(c.signals.contains { $0.member == "DeviceChanged" }, "back was asked for and is current")
        XCTAssertFalse(c.signals.contains { $0.member == "CandidateSelectionStarted" }, "the script starts without a face")
    }

    func testRestartBeginsAgainAndStopEndsIt() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        try c.call(session, "StartFaceAutoCapture", [.vardict(["candidate_selection_ms": .uint32(60_000)])])
        XCTAssertThrowsError(try c.call(session, "StartFaceAutoCapture", [.vardict([:])])) { XCTAssertEqual($0.shortName, "Busy") }
        try c.waitForSignal("CandidateSelectionStarted", path: session, timeout: .seconds(60))
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "candidate_selection")
        try c.call(session, "RestartFaceAutoCapture")
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "searching")
        // From the beginning: good frames in a row start the window again.
        try c.waitForSignal("CandidateSelectionStarted", path: session, timeout: .seconds(60))
        try c.call(session, "StopFaceAutoCapture")
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
        let stopped = c.signals.count
        // Longer than the camera waits for the detector: a frame it held back has come and gone.
        lensd.loop.runQuietly(for: .seconds(1))
        let after = c.signals.dropFirst(stopped).map(\.member)
        XCTAssertFalse(after.contains { $0 == "FaceDetected" || $0 == "FaceAutoCaptureFinished" }, "\(after)")
        try c.call(session, "StopFaceAutoCapture")  // idempotent
        XCTAssertThrowsError(try c.call(session, "RestartFaceAutoCapture")) { XCTAssertEqual($0.shortName, "NotStarted") }
        XCTAssertTrue(lensd.store.results(uid: 0).isEmpty)
    }

    func testReleasingTheClaimEndsIt() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        try c.call(session, "StartFaceAutoCapture", [.vardict([:])])
        try c.waitForSignal("FaceDetected", path: session)
        try c.call(session, "StopCaptureSession")
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
        XCTAssertThrowsError(try c.call(session, "RequestFaceCapture")) { XCTAssertEqual($0.shortName, "NotStarted") }
    }

    func testItNeedsTheClaimTheOwnerAndValidOptions() throws {
        try TestUsers.ensure()
        let c = lensd.client()
        let session = try c.openSession()
        XCTAssertThrowsError(try c.call(session, "StartFaceAutoCapture", [.vardict([:])])) { XCTAssertEqual($0.shortName, "NotStarted") }
        try c.call(session, "StartCaptureSession")
        let bad: [String: BusValue] = [
            "min_valid_frames": .uint32(0), "candidate_selection_ms": .int32(5),
            "detection_rectangle": .structure([.double(0.6), .double(0), .double(0.4), .double(1)]),
            "camera_facing": .string("sideways"), "min_face_size": .double(0), "max_face_size": .double(2),
            "max_center_offset": .double(-1), "min_brightness": .double(1.5), "max_brightness": .string("bright"),
            "min_sharpness": .double(-.infinity), "face_colour": .string("any"),
        ]
        for (key, value) in bad {
            XCTAssertThrowsError(try c.call(session, "StartFaceAutoCapture", [.vardict([key: value])]), key) {
                let error = $0 as? BusError
                XCTAssertEqual(error?.shortName, "InvalidArgument", key)
                XCTAssertTrue(error?.message.contains(key) ?? false, "\(key): \(error?.message ?? "")")
            }
        }
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
        try c.call(session, "StartFaceAutoCapture", [.vardict([:])])
        // Another user's connection.
        let other = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        XCTAssertThrowsError(try other.call(session, "RequestFaceCapture")) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject", "as a missing session") }
        XCTAssertThrowsError(try other.call(session, "StopFaceAutoCapture")) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject", "as a missing session") }
        XCTAssertThrowsError(try other.get(session, "FaceAutoCaptureState")) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject", "as a missing session") }
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "searching")
    }
}
