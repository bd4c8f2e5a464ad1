/// The frozen names of lensd's D-Bus API, spelled once (dbus/org.lensd.Lens1.xml describes
/// each): where the objects live, every error, every signal with its signature and
/// who receives it. The daemon, LensClient and lensctl import this; a test checks the XML and
/// the Python client against it, as systemd keeps its services' names in bus-common-errors.h.
public enum Lens1 {
    public static let busName = "org.lensd.Lens1"
    public static let managerPath = "/org/lensd/Lens1"
    /// Sessions live at sessionsPath/N.
    public static let sessionsPath = "/org/lensd/Lens1/session"
    public static let managerInterface = "org.lensd.Lens1.Manager"
    public static let sessionInterface = "org.lensd.Lens1.Session"
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
    public static let errorPrefix = "org.lensd.Lens1.Error."

    /// lensd's errors (org.lensd.Lens1.Error.NAME).
    public enum ErrorName: String, CaseIterable, Sendable {
        case `internal` = "Internal"
        case enrollment = "Enrollment"
        case timestamp = "Timestamp"
        case cameraSessionFailed = "CameraSessionFailed"
        case imageSigningFailed = "ImageSigningFailed"
        case cameraPermissionDenied = "CameraPermissionDenied"
        case microphonePermissionDenied = "MicrophonePermissionDenied"
        case locationPermissionDenied = "LocationPermissionDenied"
        case setFocusFailed = "SetFocusFailed"
        case notAuthorized = "NotAuthorized"
        case busy = "Busy"
        case notStarted = "NotStarted"
        case notFound = "NotFound"
        case invalidArgument = "InvalidArgument"
        case unsupported = "Unsupported"
        case captureDisabled = "CaptureDisabled"

        /// In the contract, but not sent by this version of lensd (none now).
        public var isReserved: Bool { false }

        /// The whole D-Bus name, org.lensd.Lens1.Error.NAME.
        public var busName: String { Lens1.errorPrefix + rawValue }

        /// The error a D-Bus name stands for, if it is one of lensd's.
        public init?(busName: String) {
            guard busName.hasPrefix(Lens1.errorPrefix) else { return nil }
            self.init(rawValue: String(busName.dropFirst(Lens1.errorPrefix.count)))
        }
    }

    /// Who receives a signal: always unicast, never broadcast.
    public enum Audience: Sendable {
        /// The owner of the session the signal is about, in answer to what the session did.
        case session
        /// Every session the result's owner has open: news of a result no call of theirs asked
        /// for (delivered, evicted, time-stamped later), queued for their next session when
        /// none is open (except the outbox's, which are news of the moment).
        case resultOwner
        /// A session's owner, or the result's owner for a recording recovered after a crash.
        case sessionOrResultOwner
    }

    /// The Session's signals: name, signature, argument names, audience.
    public enum Signal: String, CaseIterable, Sendable {
        case initialCaptureFinished = "InitialCaptureFinished"
        case photoSigned = "PhotoSigned"
        case captureDisabled = "CaptureDisabled"
        case captureEnabled = "CaptureEnabled"
        case failed = "Failed"
        case zoomFactorChanged = "ZoomFactorChanged"
        case focusedOnPoint = "FocusedOnPoint"
        case deviceChanged = "DeviceChanged"
        case flashModeChanged = "FlashModeChanged"
        case subjectAreaChanged = "SubjectAreaChanged"
        case locationChanged = "LocationChanged"
        case videoRecordingStarted = "VideoRecordingStarted"
        case videoRecordingStopped = "VideoRecordingStopped"
        case videoRecordingFailed = "VideoRecordingFailed"
        case videoThumbnailGenerated = "VideoThumbnailGenerated"
        case videoSigned = "VideoSigned"
        case videoUnsigned = "VideoUnsigned"
        case resultUploaded = "ResultUploaded"
        case uploadFailed = "UploadFailed"
        case resultEvicted = "ResultEvicted"
        case resultUpdated = "ResultUpdated"
        case faceDetected = "FaceDetected"
        case candidateSelectionStarted = "CandidateSelectionStarted"
        case faceAutoCaptureFinished = "FaceAutoCaptureFinished"

        public var name: String { rawValue }

        /// The arguments, in order: name and D-Bus type.
        public var arguments: KeyValuePairs<String, String> {
            switch self {
            case .initialCaptureFinished: ["name": "s", "thumbnail": "ay"]
            case .photoSigned, .videoSigned, .videoUnsigned, .resultUploaded, .resultUpdated: ["name": "s", "info": "a{sv}"]
            case .captureDisabled: ["reasons": "as"]
            case .captureEnabled, .subjectAreaChanged, .videoRecordingStarted, .videoRecordingStopped,
                 .candidateSelectionStarted: [:]
            case .failed, .videoRecordingFailed: ["error": "s", "message": "s"]
            case .zoomFactorChanged: ["factor": "d"]
            case .focusedOnPoint: ["x": "d", "y": "d"]
            case .deviceChanged: ["device": "a{sv}"]
            case .flashModeChanged: ["mode": "s"]
            case .locationChanged: ["location": "a{sv}"]
            case .videoThumbnailGenerated: ["name": "s", "thumbnail": "ay", "duration": "d"]
            case .uploadFailed: ["name": "s", "error": "s", "message": "s"]
            case .resultEvicted: ["name": "s", "reason": "s"]
            case .faceDetected: ["detection": "a{sv}"]
            case .faceAutoCaptureFinished: ["name": "s", "detection": "a{sv}"]
            }
        }

        /// The body's signature, the arguments' types in order.
        public var signature: String { arguments.map(\.value).joined() }

        public var audience: Audience {
            switch self {
            case .resultUploaded, .uploadFailed, .resultEvicted, .resultUpdated: .resultOwner
            case .videoSigned, .videoUnsigned: .sessionOrResultOwner
            default: .session
            }
        }
    }
}
