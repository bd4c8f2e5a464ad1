import LensFace
import XCTest

/// The auto-capture controller on the 320×240 scenario frames, with exact timestamps.
final class FaceAutoCaptureTests: XCTestCase {
    private func controller(_ configure: (inout FaceAutoCaptureConfiguration) -> Void = { _ in }) throws -> FaceAutoCapture<String> {
        var configuration = FaceAutoCaptureConfiguration()
        configure(&configuration)
        return try FaceAutoCapture(detector: try FaceScenes.detector.get(), configuration: configuration)
    }

    /// A frame fed as (scene, timestamp); the scene's name is the frame handed back.
    private func feed(_ capture: inout FaceAutoCapture<String>, _ name: String, at time: Int64) throws -> FaceAutoCaptureStep<String>? {
        capture.process(try luma(name), timestampMillis: time, frame: name)
    }

    /// The scenes, and "dim": the centred frame at 60 % brightness (still valid, but further from
    /// the middle of the brightness band: a worse score).
    private func luma(_ name: String) throws -> LumaImage {
        guard name == "dim" else { return try FaceScenes.scene(name).luma }
        let centred = try FaceScenes.scene("centred").luma
        return try LumaImage(width: centred.width, height: centred.height, pixels: centred.pixels.map { UInt8(Int($0) * 3 / 5) })
    }

    func testEachSceneGetsItsInstruction() throws {
        let expected: [String: FaceInstruction] = [
            "no_face": .faceNotPresent, "far": .faceTooFar, "close": .faceTooClose, "off_centre": .faceCentering,
            "dark": .lighting, "overexposed": .lighting, "blurred": .lighting, "centred": .candidateSelection,
        ]
        for (name, instruction) in expected {
            var capture = try controller()
            let step = try XCTUnwrap(try feed(&capture, name, at: 0))
            XCTAssertEqual(step.detection.instruction, instruction, name)
            XCTAssertEqual(step.detection.isValid, instruction == .candidateSelection, name)
            XCTAssertEqual(step.detection.face == nil, name == "no_face", name)
        }
    }

    func testCandidateSelectionStartsAfterNValidFramesInARow() throws {
        for n in [1, 2, 3] {
            var capture = try controller { $0.minValidFramesInRow = n }
            // An invalid frame resets the count.
            var sequence = Array(repeating: "centred", count: n - 1) + ["far"] + Array(repeating: "centred", count: n)
            sequence += ["centred", "off_centre", "centred"]
            var started: [Int] = []
            for (index, name) in sequence.enumerated() {
                let step = try XCTUnwrap(try feed(&capture, name, at: Int64(index) * 33))
                if step.candidateSelectionStarted { started.append(index) }
                XCTAssertNil(step.result)
            }
            XCTAssertEqual(started, [2 * n - 1], "N = \(n): once, on the N-th valid frame after the reset")
            XCTAssertEqual(capture.state, .candidateSelection)
        }
    }

    func testTheWindowLastsItsDurationAndKeepsTheBest() throws {
        var capture = try controller { $0.candidateSelectionDurationMillis = 1000 }
        // Starts at t = 100 (second valid frame); an invalid frame in the window does not end it.
        let frames: [(String, Int64)] = [("dim", 0), ("dim", 100), ("centred", 400), ("no_face", 500), ("off_centre", 700), ("dim", 1099)]
        for (name, time) in frames {
            let step = try XCTUnwrap(try feed(&capture, name, at: time))
            XCTAssertNil(step.result, "\(name) at \(time)")
            XCTAssertEqual(capture.state, time == 0 ? .searching : .candidateSelection, "\(name) at \(time)")
        }
        // At exactly 1000 ms after the start the best candidate (the brighter, centred frame) is the result.
        let last = try XCTUnwrap(try feed(&capture, "dim", at: 1100))
        let result = try XCTUnwrap(last.result)
        XCTAssertEqual(result.frame, "centred")
        XCTAssertEqual(result.detection.timestampMillis, 400)
        XCTAssertEqual(capture.state, .finished)
        XCTAssertNil(try feed(&capture, "centred", at: 1200), "the process has ended")
    }

    func testRequestCaptureTakesTheNextFrameWhateverItsQuality() throws {
        var capture = try controller()
        _ = try feed(&capture, "centred", at: 0)
        capture.requestCapture()
        let step = try XCTUnwrap(try feed(&capture, "no_face", at: 33))
        XCTAssertEqual(step.result?.frame, "no_face")
        XCTAssertEqual(step.detection.instruction, .faceNotPresent)
        XCTAssertEqual(capture.state, .finished)
    }

    func testRestartBeginsAgain() throws {
        var capture = try controller { $0.candidateSelectionDurationMillis = 0 }
        _ = try feed(&capture, "centred", at: 0)
        XCTAssertEqual(try feed(&capture, "centred", at: 33)?.result?.frame, "centred", "a zero-length window ends on its first frame")
        capture.restart()
        XCTAssertEqual(capture.state, .searching)
        let first = try XCTUnwrap(try feed(&capture, "dim", at: 66))
        XCTAssertFalse(first.candidateSelectionStarted, "the count of valid frames started again")
        let second = try XCTUnwrap(try feed(&capture, "dim", at: 99))
        XCTAssertTrue(second.candidateSelectionStarted)
        XCTAssertEqual(second.result?.frame, "dim")
    }

    func testDetectionRunsOnlyInsideTheDetectionRectangle() throws {
        let far = try FaceScenes.scene("far")
        let rectangleWidth = Double(far.luma.width) / 3
        let whole = try XCTUnwrap(try FaceScenes.detector.get().detect(image: far.luma).first)
        // The far face fills a third of the frame's middle: there it is the right size.
        var middle = try controller { $0.detectionRectangle = .init(left: 1 / 3.0, top: 0.2, right: 2 / 3.0, bottom: 0.7) }
        let inside = try XCTUnwrap(try feed(&middle, "far", at: 0)?.detection)
        XCTAssertEqual(inside.instruction, .candidateSelection)
        let face = try XCTUnwrap(inside.face)
        XCTAssertGreaterThanOrEqual(face.rectangle.intersectionOverUnion(whole.rectangle), 0.9, "reported in frame pixels")
        XCTAssertEqual(face.quality.size, Double(face.rectangle.width) / rectangleWidth, accuracy: 0.01, "size relative to the rectangle")
        // A rectangle that leaves the face out sees none.
        var left = try controller { $0.detectionRectangle = .init(left: 0, top: 0, right: 0.3, bottom: 1) }
        XCTAssertEqual(try feed(&left, "centred", at: 0)?.detection.instruction, .faceNotPresent)
    }

    func testBadConfigurationNamesTheOption() {
        let cases: [(String, (inout FaceAutoCaptureConfiguration) -> Void)] = [
            ("min_valid_frames", { $0.minValidFramesInRow = 0 }),
            ("candidate_selection_ms", { $0.candidateSelectionDurationMillis = -1 }),
            ("detection_rectangle", { $0.detectionRectangle = .init(left: 0.6, top: 0, right: 0.4, bottom: 1) }),
            ("min_face_size", { $0.minFaceSize = 0 }),
            ("max_face_size", { $0.maxFaceSize = 0.1 }),
            ("max_center_offset", { $0.maxCenterOffset = 2 }),
            ("min_brightness", { $0.minBrightness = -0.1 }),
            ("max_brightness", { $0.maxBrightness = 0.1 }),
            ("min_sharpness", { $0.minSharpness = .nan }),
        ]
        for (option, configure) in cases {
            XCTAssertThrowsError(try controller(configure), option) {
                XCTAssertEqual(($0 as? FaceAutoCaptureConfigurationError)?.option, option)
            }
        }
    }
}
