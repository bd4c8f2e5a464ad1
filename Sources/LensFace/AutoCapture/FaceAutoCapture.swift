/// The auto-capture controller: fed frames with their timestamps (it has no clock of its
/// own), it tells the person what to do on every frame, starts the candidate window after
/// `minValidFramesInRow` good frames in a row, and when the window has lasted
/// `candidateSelectionDurationMillis` hands back the best-scoring frame of it.
///
/// `Frame` is whatever the caller needs back for the chosen frame (the daemon: the full-size
/// frame whose downscale was scored). Only the best candidate's is kept, so memory stays at
/// one frame however long the window runs.
public struct FaceAutoCapture<Frame> {
    public enum State: String, Sendable {
        case searching
        case candidateSelection = "candidate_selection"
        case finished
    }

    public let configuration: FaceAutoCaptureConfiguration
    public let detector: FaceDetector
    public private(set) var state = State.searching

    private var validInRow = 0
    private var selectionStartMillis: Int64?
    private var best: (score: Double, result: FaceAutoCaptureResult<Frame>)?
    private var captureRequested = false

    public init(detector: FaceDetector, configuration: FaceAutoCaptureConfiguration = .init())
        throws(FaceAutoCaptureConfigurationError) {
        self.detector = detector
        self.configuration = try configuration.validated()
    }

    /// Evaluates one frame; nil once the process has finished (until `restart`).
    public mutating func process(_ luma: LumaImage, timestampMillis: Int64, frame: Frame) -> FaceAutoCaptureStep<Frame>? {
        guard state != .finished else { return nil }
        let detection = detect(luma, timestampMillis: timestampMillis)
        if captureRequested {
            return finish(detection, with: FaceAutoCaptureResult(frame: frame, detection: detection), started: false)
        }
        var started = false
        if state == .searching {
            validInRow = detection.isValid ? validInRow + 1 : 0
            if validInRow >= configuration.minValidFramesInRow {
                state = .candidateSelection
                selectionStartMillis = timestampMillis
                started = true
            }
        }
        guard state == .candidateSelection, let start = selectionStartMillis else {
            return FaceAutoCaptureStep(detection: detection, candidateSelectionStarted: false, result: nil)
        }
        // An invalid frame in the window is not a candidate, and does not end the window.
        if detection.isValid, let quality = detection.face?.quality {
            let score = configuration.score(quality)
            if score > best?.score ?? -.infinity {
                best = (score, FaceAutoCaptureResult(frame: frame, detection: detection))
            }
        }
        if timestampMillis - start >= Int64(configuration.candidateSelectionDurationMillis), let best {
            return finish(detection, with: best.result, started: started)
        }
        return FaceAutoCaptureStep(detection: detection, candidateSelectionStarted: started, result: nil)
    }

    /// The next processed frame becomes the result, whatever its quality.
    public mutating func requestCapture() {
        if state != .finished { captureRequested = true }
    }

    /// From the beginning: searching, no good frames counted, no candidate kept.
    public mutating func restart() {
        state = .searching
        validInRow = 0
        selectionStartMillis = nil
        best = nil
        captureRequested = false
    }

    private mutating func finish(_ detection: FaceDetection, with result: FaceAutoCaptureResult<Frame>, started: Bool)
        -> FaceAutoCaptureStep<Frame> {
        state = .finished
        best = nil
        captureRequested = false
        return FaceAutoCaptureStep(detection: detection, candidateSelectionStarted: started, result: result)
    }

    /// Detection inside the detection rectangle, the face reported in frame coordinates.
    private func detect(_ luma: LumaImage, timestampMillis: Int64) -> FaceDetection {
        let region = configuration.detectionRectangle
        let x0 = Int((region.left * Double(luma.width)).rounded()), x1 = Int((region.right * Double(luma.width)).rounded())
        let y0 = Int((region.top * Double(luma.height)).rounded()), y1 = Int((region.bottom * Double(luma.height)).rounded())
        var face: DetectedFace?
        if x1 > x0, y1 > y0 {
            let searched = luma.cropped(to: FaceRectangle(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            let options = FaceDetector.Options(minSize: configuration.searchMinSize(width: searched.width))
            face = detector.detect(image: searched, options: options).first?.offset(by: (x0, y0))
        }
        let instruction = configuration.instruction(for: face)
        return FaceDetection(timestampMillis: timestampMillis, face: face, instruction: instruction,
                             isValid: instruction == .candidateSelection)
    }
}

/// What one processed frame showed.
public struct FaceDetection: Sendable, Equatable {
    public let timestampMillis: Int64
    /// The largest face in the detection rectangle, in frame pixels; its quality is relative
    /// to the detection rectangle.
    public let face: DetectedFace?
    public let instruction: FaceInstruction
    /// Good enough to be a candidate (the instruction is `candidateSelection`).
    public let isValid: Bool
}

public struct FaceAutoCaptureResult<Frame> {
    public let frame: Frame
    public let detection: FaceDetection
}

/// The outcome of `process`: the frame's detection, whether the candidate window started on
/// it (once per run), and the result when the process finished on it.
public struct FaceAutoCaptureStep<Frame> {
    public let detection: FaceDetection
    public let candidateSelectionStarted: Bool
    public let result: FaceAutoCaptureResult<Frame>?
}

extension FaceAutoCaptureResult: Sendable where Frame: Sendable {}
extension FaceAutoCaptureStep: Sendable where Frame: Sendable {}
extension FaceAutoCapture: Sendable where Frame: Sendable {}
