import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// Face auto-capture end to end on the private system bus: the synthetic camera plays a scripted
/// sequence of face_scenes.py's frames (synthetic-frames), each file with its index drawn in a
/// corner (face_sequence.py), so every FaceDetected can be checked against the frame it names and
/// the signed selfie shows which frame it is.
final class FaceCaptureSessionTests: LensdTestCase {
    /// 30 fps: each step lasts 2 s, the centred frames 5 s (the window is 1 s), so that even a
    /// debug build on a busy machine, skipping frames, processes each step.
    static let script = ["no_face:60", "far:60", "off_centre:60", "close:60", "dark:60", "centred:150"]
    static let instructions = ["no_face": "face_not_present", "far": "face_too_far", "off_centre": "face_centering",
                               "close": "face_too_close", "dark": "lighting", "centred": "candidate_selection"]

    private var frames: URL { tmp.file("frames") }
    /// The scenario of each file, by index.
    private var scenarios: [String] = []

    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-frames", frames.path] }

    override func prepare() throws {
        let scenes = tmp.file("scenes")
        try TestTools.runOracle("face_scenes.py", [scenes.path])
        let listing = try TestTools.runOracle("face_sequence.py", ["write", scenes.path, frames.path] + Self.script)
        scenarios = try JSONDecoder().decode([String].self, from: listing)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: frames.path)
    }

    private func claimedSession(_ c: TestClient) throws -> String {
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        return session
    }

    private func scenario(of detection: [String: BusValue]) throws -> String {
        let frame = try XCTUnwrap(detection["frame"]?.uint64Value, "\(detection)")
        return scenarios[Int(frame % UInt64(scenarios.count))]
    }

    private func detections(_ c: TestClient) -> [[String: BusValue]] {
        c.signals.filter { $0.member == "FaceDetected" }.compactMap { $0.arguments.first?.vardictValue }
    }

    func testAFullAutoCaptureFollowsTheScriptAndSignsTheChosenFrame() throws {
        let c = try client()
        let session = try claimedSession(c)
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
        try c.call(session, "StartFaceAutoCapture", [.vardict([:])])
        // The component's default: the front camera.
        let device = try c.waitForSignal("DeviceChanged", path: session)
        XCTAssertEqual(device.arguments.first?.vardictValue?["position"]?.stringValue, "front")
        let finished = try c.waitForSignal("FaceAutoCaptureFinished", path: session, timeout: 60)
        let name = try XCTUnwrap(finished.arguments.first?.stringValue)
        let chosen = try XCTUnwrap(finished.arguments.last?.vardictValue)

        // Every processed frame got its scenario's instruction, and each step of the script was seen.
        let seen = detections(c)
        for detection in seen {
            XCTAssertEqual(detection["instruction"]?.stringValue, Self.instructions[try scenario(of: detection)], "\(detection)")
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
        let signed = try c.waitForSignal("PhotoSigned", path: session, timeout: 30)
        XCTAssertEqual(signed.arguments.first?.stringValue, name)
        let photo = try XCTUnwrap(storedPhotos().first { $0.lastPathComponent == "\(name).jpg" })
        let drawn = String(decoding: try TestTools.runOracle("face_sequence.py", ["read", photo.path]), as: UTF8.self)
        XCTAssertEqual(UInt64(drawn.trimmingCharacters(in: .whitespacesAndNewlines)),
                       try XCTUnwrap(chosen["frame"]?.uint64Value) % UInt64(scenarios.count))
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [try c.trustAnchorFile(in: tmp)])
        XCTAssertEqual(verdict.actions.first?.digitalSourceType,
                       "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia")
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
    }

    func testRequestFaceCaptureTakesTheNextFrameWhateverItShows() throws {
        let c = try client()
        let session = try claimedSession(c)
        XCTAssertThrowsError(try c.call(session, "RequestFaceCapture")) { XCTAssertEqual(($0 as? BusError)?.shortName, "NotStarted") }
        try c.call(session, "StartFaceAutoCapture", [.vardict(["camera_facing": .string("back")])])
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "searching")
        try c.waitForSignal("FaceDetected", path: session)
        try c.call(session, "RequestFaceCapture")
        let finished = try c.waitForSignal("FaceAutoCaptureFinished", path: session, timeout: 30)
        let name = finished.arguments.first?.stringValue
        let signed = try c.waitForSignal("PhotoSigned", path: session, timeout: 30)
        XCTAssertEqual(signed.arguments.first?.stringValue, name)
        XCTAssertFalse(c.signals.contains { $0.member == "DeviceChanged" }, "back was asked for and is current")
        XCTAssertFalse(c.signals.contains { $0.member == "CandidateSelectionStarted" }, "the script starts without a face")
    }

    func testRestartBeginsAgainAndStopEndsIt() throws {
        let c = try client()
        let session = try claimedSession(c)
        try c.call(session, "StartFaceAutoCapture", [.vardict(["candidate_selection_ms": .uint32(60_000)])])
        XCTAssertThrowsError(try c.call(session, "StartFaceAutoCapture", [.vardict([:])])) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "Busy")
        }
        try c.waitForSignal("CandidateSelectionStarted", path: session, timeout: 60)
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "candidate_selection")
        try c.call(session, "RestartFaceAutoCapture")
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "searching")
        // From the beginning: the window starts again once the centred frames come round again.
        try c.waitForSignal("CandidateSelectionStarted", path: session, timeout: 60)
        try c.call(session, "StopFaceAutoCapture")
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
        try c.ping()
        c.forgetSignals()
        try c.drain(for: 1)  // nothing arrives within a second: the wait is the subject
        XCTAssertFalse(c.signals.contains { $0.member == "FaceDetected" || $0.member == "FaceAutoCaptureFinished" },
                       "\(c.signals.map(\.member))")
        try c.call(session, "StopFaceAutoCapture")  // idempotent
        XCTAssertThrowsError(try c.call(session, "RestartFaceAutoCapture")) { XCTAssertEqual(($0 as? BusError)?.shortName, "NotStarted") }
        XCTAssertTrue(storedPhotos().isEmpty)
    }

    func testReleasingTheClaimEndsIt() throws {
        let c = try client()
        let session = try claimedSession(c)
        try c.call(session, "StartFaceAutoCapture", [.vardict([:])])
        try c.waitForSignal("FaceDetected", path: session)
        try c.call(session, "StopCaptureSession")
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "idle")
        XCTAssertThrowsError(try c.call(session, "RequestFaceCapture")) { XCTAssertEqual(($0 as? BusError)?.shortName, "NotStarted") }
    }

    func testItNeedsTheClaimTheOwnerAndValidOptions() throws {
        let c = try client()
        let session = try c.openSession()
        XCTAssertThrowsError(try c.call(session, "StartFaceAutoCapture", [.vardict([:])])) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "NotStarted")
        }
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
        let other = try peer(["call:\(session):org.lensd.Lens1.Session:RequestFaceCapture",
                              "call:\(session):org.lensd.Lens1.Session:StopFaceAutoCapture",
                              "get:\(session):org.lensd.Lens1.Session:FaceAutoCaptureState"], as: TestUsers.member)
        XCTAssertEqual(try other.finish(), 0, "\(other.lines)")
        XCTAssertEqual(other.lines.filter { $0.hasPrefix("error ") && $0.contains("org.lensd.Lens1.Error.NotAuthorized") }.count,
                       3, "\(other.lines)")
        XCTAssertEqual(try c.get(session, "FaceAutoCaptureState").stringValue, "searching")
    }

    /// LensClient: the delegate hears each processed frame, the window, the chosen frame, then its
    /// thumbnail and signed photo under that name; instruction texts take an app's override.
    func testLensClientDeliversTheFaceCallbacksInOrder() throws {
        let delegate = RecordingDelegate()
        let camera = try LensCamera(bus: .address(bus.address), delegate: delegate, delegateQueue: delegate.queue)
        try camera.startCaptureSession()
        var configuration = LensFaceAutoCaptureConfiguration()
        configuration.minValidFrames = 1
        configuration.candidateSelectionMillis = 0
        configuration.cameraFacing = .back
        try camera.startFaceAutoCapture(configuration: configuration)
        XCTAssertThrowsError(try camera.startFaceAutoCapture()) {
            guard case .busy = $0 as? LensClientError else { return XCTFail("\($0)") }
        }
        guard case .faceFinished(let name, let chosen) = try delegate.wait(for: "didFinishFaceAutoCapture", timeout: 60, {
            if case .faceFinished = $0 { true } else { false }
        }) else { return XCTFail("not finished") }
        try delegate.wait(for: "didGenerateTruepic") { if case .truepic(name, _, _) = $0 { true } else { false } }
        let kinds = delegate.calls.map(\.kind).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        XCTAssertEqual(kinds, ["FaceDetected", "CandidateSelectionStarted", "FaceAutoCaptureFinished", "InitialCaptureFinished",
                               "PhotoSigned"])
        XCTAssertEqual(chosen.instruction, .candidateSelection)
        XCTAssertTrue(chosen.isValid)
        let face = try XCTUnwrap(chosen.face)
        XCTAssertTrue(face.left < face.right && face.top < face.bottom, "\(face)")
        XCTAssertEqual(scenarios[Int(chosen.frame % UInt64(scenarios.count))], "centred")
        XCTAssertEqual(delegate.offQueue, 0)

        let localization = LensFaceLocalization(localizationDictionary: ["face_too_far": "Come closer"])
        XCTAssertEqual(LensFaceInstruction.faceTooFar.localizedText(localization), "Come closer")
        XCTAssertEqual(LensFaceInstruction.faceTooClose.localizedText(localization), "Move back")
    }

    /// `lensctl face-capture`: the selfie written and Trusted, JSON lines valid under the schema,
    /// a bad option named (exit 1), and exit 5 when no selfie comes in time.
    func testLensctlFaceCaptureWritesTheSelfie() throws {
        let selfie = tmp.file("selfie.jpg")
        let run = try lensctl.expect(0, ["face-capture", "-o", selfie.path, "--json", "--camera-facing", "back", "--timeout", "60"])
        try JSONSchemaCheck.assertValid(run.stdout, schema: "face-capture", lines: true)
        let lines = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.filter { $0["event"] as? String == "CandidateSelectionStarted" }.count, 1)
        XCTAssertGreaterThan(lines.filter { $0["event"] as? String == "FaceDetected" }.count, 1)
        let result = try XCTUnwrap(lines.last)
        XCTAssertEqual(result["verdict"] as? String, "Trusted")
        XCTAssertEqual(result["path"] as? String, selfie.path)
        try ReferenceValidator.assertTrusted(selfie, anchors: [try client().trustAnchorFile(in: tmp)])

        let bad = try lensctl.expect(1, ["face-capture", "-o", tmp.file("bad.jpg").path, "--max-face-size", "3"])
        XCTAssertTrue(bad.stderr.contains("max_face_size"), bad.stderr)
        let late = try lensctl.expect(5, ["face-capture", "-o", tmp.file("late.jpg").path, "--min-valid-frames", "1000", "--timeout", "2"])
        XCTAssertTrue(late.stderr.contains("gave up after 2 s"), late.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("late.jpg").path))
    }

    /// Off a terminal (a log, a pipe) `face-capture` prints each change of instruction as a line of
    /// its own on stderr, in the order the script asks for them — never carriage returns.
    func testLensctlFaceCaptureWritesInstructionChangesAsLinesOffATerminal() throws {
        let run = try lensctl.expect(0, ["face-capture", "-o", tmp.file("selfie.jpg").path, "--camera-facing", "back",
                                         "--timeout", "60"])
        XCTAssertFalse(run.stderr.contains("\r"), run.stderr)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(zip(lines, lines.dropFirst()).allSatisfy { $0 != $1 }, "a line repeats the one before:\n\(run.stderr)")
        // The script's steps, in its order (a busy debug build may skip a short step's frames, or
        // see a frame of the next step early, so the first sighting of each is what is compared).
        let script = ["Present your face", "Move closer", "Center your face", "Move back", "Turn towards light", "Hold still..."]
        let firstSightings = lines.filter(script.contains).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        XCTAssertEqual(firstSightings, script.filter(firstSightings.contains), "out of the script's order:\n\(run.stderr)")
        XCTAssertGreaterThanOrEqual(firstSightings.count, 4, run.stderr)
        XCTAssertEqual(firstSightings.last, "Hold still...", run.stderr)
        XCTAssertTrue(run.stdout.contains("verdict:  Trusted"), run.stdout)
    }
}
