extension Lens1 {
    /// The keys of the a{sv} options methods take; a key not listed is refused (InvalidArgument).

    /// OpenSession(options).
    public enum SessionOption: String, CaseIterable, Sendable {
        /// b: the session belongs to the caller's uid, not its connection (one-shot clients: busctl).
        case persistent
        /// d: the location accuracy gate, 3...1500 metres.
        case maximumLocationAccuracy
        /// b: false records this session's videos silent.
        case audio
    }

    /// OpenPreview(options).
    public enum PreviewOption: String, CaseIterable, Sendable {
        /// u: the box the frames are fitted into, in pixels.
        case width, height
        /// d: the highest frame rate, at least 1.
        case fps
        /// u: JPEG quality, 1...100.
        case quality
    }

    /// StartFaceAutoCapture(options), the face auto-capture component's settings by their names.
    public enum FaceOption: String, CaseIterable, Sendable {
        case minValidFrames = "min_valid_frames"
        case candidateSelectionMillis = "candidate_selection_ms"
        case detectionRectangle = "detection_rectangle"
        case cameraFacing = "camera_facing"
        case minFaceSize = "min_face_size"
        case maxFaceSize = "max_face_size"
        case maxCenterOffset = "max_center_offset"
        case minBrightness = "min_brightness"
        case maxBrightness = "max_brightness"
        case minSharpness = "min_sharpness"
    }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// "a, b, c": the keys an error names as the known ones.
    public static var known: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
