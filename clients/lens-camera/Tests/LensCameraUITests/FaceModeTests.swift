import Foundation
import LensTestSupport
import XCTest

/// Face mode on the synthetic camera playing scripted face frames (face_scenes.py,
/// face_sequence.py): the instruction and the face's rectangle over the preview, the face
/// turning green when it is right, then the signed selfie as the last result.
final class FaceModeTests: LensCameraTestCase {
    /// At 30 fps: no face for 1.5 s, a face too far for 1.5 s, then centred for 5 s.
    static let script = ["no_face:45", "far:45", "centred:150"]
    static let validGreen = Screenshot.Pixel(red: 38, green: 163, blue: 105)
    static let faceButtonArea = Screenshot.Rect(x: 693, y: 527, width: 40, height: 40)

    private var frames: URL { tmp.file("frames") }

    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-frames", frames.path] }

    override func prepare() throws {
        let scenes = tmp.file("scenes")
        try TestTools.runOracle("face_scenes.py", [scenes.path])
        try TestTools.runOracle("face_sequence.py", ["write", scenes.path, frames.path] + Self.script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: frames.path)
    }

    func testFaceModeGuidesToAValidFaceAndKeepsTheSignedSelfie() throws {
        let start = try waitForPreview()
        let monitor = try BusMonitor(address: bus.address, logDirectory: tmp)
        try person.click(x: Layout.faceButton.x, y: Layout.faceButton.y)
        try waitFor("StartFaceAutoCapture") { monitor.calls("StartFaceAutoCapture").count == 1 }
        // The face toggle is pressed (green) while face capture runs.
        try waitForScreen("face-on") { $0.count(near: Self.validGreen, tolerance: 20, in: Self.faceButtonArea) > 300 }
        XCTAssertEqual(start.count(near: Self.validGreen, tolerance: 20, in: Self.faceButtonArea), 0)
        try waitForScreen("face-valid") { $0.count(near: Self.validGreen, tolerance: 20, in: Layout.preview) > 200 }
        try waitForScreen("selfie", timeout: 60) { $0.distinctColors(in: Layout.lastResult) > 30 }
        try waitForScreen("selfie-verified") {
            $0.count(near: CaptureTests.verifiedGreen, tolerance: 12, in: Layout.lastResult) > 40
        }
        let kept = keptFiles("Pictures", extension: "jpg")
        XCTAssertEqual(kept.count, 1, "the selfie kept in ~/Pictures/Lens Camera")
        for photo in kept { try ReferenceValidator.assertTrusted(photo, anchors: [trustAnchorFile()]) }
    }
}
