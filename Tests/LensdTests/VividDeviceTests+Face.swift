import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Face auto-capture on a real V4L2 path: v4l2loopback plays face_sequence.py's scenario frames
/// (made on the host by VividVMTests, listed in face-frames/listing.json), one scenario at a time,
/// switched by the test, so lensd's detector sees each step's frames through the kernel and
/// libv4l2 as it would a webcam's.
extension VividDeviceTests {
    func testFaceAutoCaptureThroughTheLoopbackSignsACentredFrame() throws {
        let frames = try XCTUnwrap(ProcessInfo.processInfo.environment["LENSD_VM_OUT"]) + "/face-frames"
        let scenarios = try JSONDecoder().decode([String].self, from: Data(contentsOf: URL(fileURLWithPath: frames + "/listing.json")))
        let files = Dictionary(grouping: scenarios.indices.map { (scenarios[$0], String(format: "%@/%05d.jpg", frames, $0)) },
                               by: \.0).mapValues { $0.map(\.1) }
        let sizes = try scenarios.indices.map {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: String(format: "%@/%05d.jpg", frames, $0))[.size] as? Int)
        }
        let steps = ["no_face", "far", "off_centre", "close", "dark", "centred"]
        let control = Pipe()
        let (node, feeder) = try feedLoopback(files: files[steps[0]], buffer: sizes.max(), control: control)
        defer { feeder.terminate(); feeder.waitUntilExit() }
        let (c, s) = try claimCamera(node)
        try c.call(s, "StartFaceAutoCapture", [.vardict([:])])
        // Each step's frames play until the detector has given that step's instruction; frames
        // already on their way may still show the step before.
        var seen: [String] = []
        for step in steps.dropLast() {
            control.fileHandleForWriting.write(Data((try XCTUnwrap(files[step]).joined(separator: " ") + "\n").utf8))
            let expected = try XCTUnwrap(FaceScript.instructions[step])
            while seen.last != expected {
                let detection = try c.waitForSignal("FaceDetected", path: s, timeout: 90)
                seen.append(try XCTUnwrap(detection.arguments.first?.vardictValue?["instruction"]?.stringValue))
            }
        }
        control.fileHandleForWriting.write(Data((try XCTUnwrap(files["centred"]).joined(separator: " ") + "\n").utf8))
        let finished = try c.waitForSignal("FaceAutoCaptureFinished", path: s, timeout: 120)
        seen += c.signals.filter { $0.member == "FaceDetected" }.compactMap { $0.arguments.first?.vardictValue?["instruction"]?.stringValue }
        XCTAssertEqual(seen.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } },
                       steps.compactMap { FaceScript.instructions[$0] }, "\(seen)")
        XCTAssertEqual(c.signals.filter { $0.member == "CandidateSelectionStarted" }.count, 1)
        XCTAssertEqual(finished.arguments.last?.vardictValue?["valid"]?.boolValue, true)

        let name = try XCTUnwrap(finished.arguments.first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: s, timeout: 60) { $0.arguments.first?.stringValue == name }
        let photo = try XCTUnwrap(c.call(s, "ReadResult", [.string(name)]).first?.bytesValue)
        try bringBack(Data(photo), as: "loopback-face.jpg", anchorFrom: c)
        XCTAssertTrue(daemon.log.contains("\(node) streams 640x480 MJPG"), daemon.log)
    }
}
