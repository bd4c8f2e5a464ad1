/// What the person in front of the camera should do next: exactly one per processed frame.
/// The raw values are the wire keys (FaceDetected's `instruction`, dbus/org.lensd.Lens1.xml); the
/// face library's localization keys (`localizationKey`) are the gettext contexts, the English texts their msgids.
public enum FaceInstruction: String, Sendable, CaseIterable, Codable {
    case faceNotPresent = "face_not_present"
    case faceCentering = "face_centering"
    case faceTooFar = "face_too_far"
    case faceTooClose = "face_too_close"
    /// Too dark, too bright, or too blurred (webcams blur in poor light).
    case lighting = "lighting"
    /// The face is good: the candidate window is (or is about to be) running.
    case candidateSelection = "candidate_selection"

    /// The wire key (`face_too_far`).
    public var key: String { rawValue }

    /// The face library's localization key (`dot.face_lite_auto_capture.instruction.face_too_far`):
    /// what an app's Localizable.strings and `localizationDictionary` name, and the catalogs' msgctxt.
    public var localizationKey: String { "dot.face_lite_auto_capture.instruction.\(rawValue)" }

    public var defaultText: String {
        switch self {
        case .faceNotPresent: "Present your face"
        case .faceCentering: "Center your face"
        case .faceTooFar: "Move closer"
        case .faceTooClose: "Move back"
        case .lighting: "Turn towards light"
        case .candidateSelection: "Hold still..."
        }
    }
}
