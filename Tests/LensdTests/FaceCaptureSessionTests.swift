import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// Face auto-capture through the clients on the private system bus: LensClient's delegate and
/// `lensctl face-capture`. The synthetic camera plays a scripted sequence of face_scenes.py's
/// frames (synthetic-frames), each file with its index drawn in a corner (face_sequence.py), so the
/// chosen frame can be checked. The flow itself — every step of a longer script, the window,
/// restart, stop, the options and the owner — is FaceFlowTests' (in process).
final class FaceCaptureSessionTests: LensdTestCase {
    /// 30 fps: 1 s without a face (FaceDetected comes before the window), then 5 s of centred
    /// frames, time enough for the 1 s window even in a debug build on a busy machine, which skips frames.
    static let script = ["no_face:30", "centred:150"]

    private var frames: URL { tmp.file("frames") }
    /// The scenario of each file, by index.
    private var scenarios: [String] = []

    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-frames", frames.path] }

    override func prepare() throws {
        scenarios = try FaceScript.write(Self.script, to: frames, scenes: tmp.file("scenes"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: frames.path)
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

        let localization = LensFaceLocalization(localizationDictionary: [LensFaceInstruction.faceTooFar.localizationKey: "Come closer"],
                                                useLocalizationDictionary: true)
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

    /// The face auto-capture moves the shared camera to its camera_facing; `face-capture` puts the
    /// camera it found back for the next client, as `capture --camera` does — after a selfie and
    /// after giving up.
    func testLensctlFaceCapturePutsTheCameraBack() throws {
        XCTAssertEqual(try lensctl.expect(0, ["set", "camera", "front"]).stdout, "camera: front: lensd synthetic camera (synthetic:front)\n")
        try lensctl.expect(0, ["face-capture", "-o", tmp.file("selfie.jpg").path, "--camera-facing", "back", "--timeout", "60"])
        let status = try lensctl.expect(0, ["status"]).stdout
        XCTAssertTrue(status.contains("Camera: front: lensd synthetic camera (synthetic:front)"), status)
        try lensctl.expect(5, ["face-capture", "-o", tmp.file("late.jpg").path, "--camera-facing", "back", "--min-valid-frames", "1000",
                               "--timeout", "2"])
        let after = try lensctl.expect(0, ["status"]).stdout
        XCTAssertTrue(after.contains("Camera: front: lensd synthetic camera (synthetic:front)"), after)
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
        // This class's short script: no face, then centred frames (each step's instruction is FaceFlowTests').
        XCTAssertEqual(firstSightings.first, "Present your face", run.stderr)
        XCTAssertEqual(firstSightings.last, "Hold still...", run.stderr)
        XCTAssertTrue(run.stdout.contains("verdict:  Trusted"), run.stdout)
    }
}
