/// How the auto-capture decides: how many good frames start the candidate window, how long
/// it lasts, where in the frame to look, and what counts as good. The defaults suit an
/// ordinary webcam at arm's length (a face about a quarter to a half of the frame wide).
public struct FaceAutoCaptureConfiguration: Sendable, Equatable {
    /// Normalized (0...1) edges within the frame; detection runs only inside.
    public struct Region: Sendable, Equatable {
        public var left: Double, top: Double, right: Double, bottom: Double

        public init(left: Double, top: Double, right: Double, bottom: Double) {
            self.left = left
            self.top = top
            self.right = right
            self.bottom = bottom
        }

        public static let wholeFrame = Region(left: 0, top: 0, right: 1, bottom: 1)
    }

    public var minValidFramesInRow = 2
    public var candidateSelectionDurationMillis = 1000
    public var detectionRectangle = Region.wholeFrame
    /// Face width over the detection rectangle's width: below `minFaceSize` "Move closer",
    /// above `maxFaceSize` "Move back".
    public var minFaceSize = 0.18
    public var maxFaceSize = 0.55
    /// FaceQuality.centerOffset above this: "Center your face".
    public var maxCenterOffset = 0.12
    /// Mean face-box luma (0...1) outside this band, or sharpness below `minSharpness`:
    /// "Turn towards light".
    public var minBrightness = 0.25
    public var maxBrightness = 0.80
    public var minSharpness = 20.0

    public init() {}

    /// Every value in range (the first one out of range names itself in the error).
    public func validated() throws(FaceAutoCaptureConfigurationError) -> Self {
        func require(_ ok: Bool, _ option: String, _ rule: String) throws(FaceAutoCaptureConfigurationError) {
            if !ok { throw FaceAutoCaptureConfigurationError(option: option, message: "\(option) must be \(rule)") }
        }
        let unit = 0.0...1.0
        try require(minValidFramesInRow >= 1 && minValidFramesInRow <= 1000, "min_valid_frames", "in 1...1000")
        try require(candidateSelectionDurationMillis >= 0 && candidateSelectionDurationMillis <= 60_000,
                    "candidate_selection_ms", "in 0...60000")
        let r = detectionRectangle
        try require([r.left, r.top, r.right, r.bottom].allSatisfy(unit.contains) && r.left < r.right && r.top < r.bottom,
                    "detection_rectangle", "(left, top, right, bottom) in 0...1 with left < right and top < bottom")
        try require(minFaceSize > 0 && minFaceSize <= 1, "min_face_size", "in 0...1 and above 0")
        try require(maxFaceSize > minFaceSize && maxFaceSize <= 1, "max_face_size", "above min_face_size and at most 1")
        try require(maxCenterOffset > 0 && maxCenterOffset <= 1, "max_center_offset", "in 0...1 and above 0")
        try require(unit.contains(minBrightness), "min_brightness", "in 0...1")
        try require(maxBrightness > minBrightness && maxBrightness <= 1, "max_brightness", "above min_brightness and at most 1")
        try require(minSharpness >= 0 && minSharpness.isFinite, "min_sharpness", "a finite number of at least 0")
        return self
    }

    /// The smallest face side to search for in a region `width` pixels wide: half the too-far
    /// size, so that a small face hears "Move closer" rather than "Present your face".
    public func searchMinSize(width: Int) -> Int {
        Int(minFaceSize / 2 * Double(width))
    }

    /// The instruction a face (or none) earns, size first, then centring, then light. Its
    /// quality must be measured against the detection rectangle.
    public func instruction(for face: DetectedFace?) -> FaceInstruction {
        guard let quality = face?.quality else { return .faceNotPresent }
        if quality.size > maxFaceSize { return .faceTooClose }
        if quality.size < minFaceSize { return .faceTooFar }
        if quality.centerOffset > maxCenterOffset { return .faceCentering }
        if quality.brightness < minBrightness || quality.brightness > maxBrightness || quality.sharpness < minSharpness {
            return .lighting
        }
        return .candidateSelection
    }

    /// How good a valid frame is as the selfie, 0...3: centring, exposure nearest the middle of
    /// the brightness band, and sharpness (saturating at four times the minimum).
    func score(_ quality: FaceQuality) -> Double {
        let centring = max(0, 1 - quality.centerOffset / maxCenterOffset)
        let middle = (minBrightness + maxBrightness) / 2, halfBand = (maxBrightness - minBrightness) / 2
        let exposure = max(0, 1 - abs(quality.brightness - middle) / halfBand)
        let sharpness = minSharpness > 0 ? min(1, quality.sharpness / (4 * minSharpness)) : 1
        return centring + exposure + sharpness
    }
}

/// A configuration value out of range; `option` is its wire name (as StartFaceAutoCapture's options).
public struct FaceAutoCaptureConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    public let option: String
    public let message: String
    public var description: String { message }
}
