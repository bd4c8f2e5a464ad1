import LensBus

/// The exported interfaces, member by member as dbus/org.lensd.Lens1.xml declares them (a test
/// compares the daemon's introspection with that file).
enum BusContract {
    static let busName = "org.lensd.Lens1"
    static let managerPath = "/org/lensd/Lens1"
    /// Sessions live at sessionsPath/N.
    static let sessionsPath = "/org/lensd/Lens1/session"

    typealias M = InterfaceDescription.Method
    typealias P = InterfaceDescription.Property
    typealias S = InterfaceDescription.Signal

    static let manager = InterfaceDescription(
        name: "org.lensd.Lens1.Manager",
        methods: [
            M(name: "OpenSession", inSignature: "a{sv}", inNames: ["options"], outSignature: "o", outNames: ["session"]),
            M(name: "ListDevices", inSignature: "", inNames: [], outSignature: "aa{sv}", outNames: ["devices"]),
            M(name: "GetTrustAnchor", inSignature: "", inNames: [], outSignature: "s", outNames: ["pem"]),
            M(name: "CreateCertificateRequest", inSignature: "a{sv}", inNames: ["subject"], outSignature: "s", outNames: ["pem"]),
            M(name: "InstallCertificate", inSignature: "s", inNames: ["chainPem"], outSignature: "a{sv}", outNames: ["info"]),
            M(name: "ListUploads", inSignature: "", inNames: [], outSignature: "aa{sv}", outNames: ["uploads"]),
            M(name: "RetryUploads", inSignature: "s", inNames: ["name"], outSignature: "u", outNames: ["count"]),
            M(name: "GetCertificateChain", inSignature: "", inNames: [], outSignature: "s", outNames: ["pem"]),
            M(name: "ListResults", inSignature: "", inNames: [], outSignature: "aa{sv}", outNames: ["results"]),
            M(name: "DeleteResult", inSignature: "s", inNames: ["name"], outSignature: "", outNames: []),
        ],
        properties: [
            P(name: "Version", signature: "s", writable: false, emitsChange: .const),
            // Cameras come and go (hot-plug): changes are broadcast.
            P(name: "CameraPresent", signature: "b", writable: false, emitsChange: .yes),
            P(name: "EnrollmentState", signature: "s", writable: false, emitsChange: .yes),
            // Changes when InstallCertificate installs a new certificate.
            P(name: "CertificateNotAfter", signature: "t", writable: false, emitsChange: .yes),
            P(name: "CertificateRenewAfter", signature: "t", writable: false, emitsChange: .yes),
            // Claims come and go: changes go to every connection with a session, so waiting clients need not poll.
            P(name: "CameraHolder", signature: "s", writable: false, emitsChange: .yes),
            P(name: "OutboxState", signature: "a{sv}", writable: false, emitsChange: .yes),
            P(name: "ResultLimits", signature: "a{sv}", writable: false, emitsChange: .const),
        ],
        signals: [])

    static let session = InterfaceDescription(
        name: "org.lensd.Lens1.Session",
        methods: [
            M(name: "StartCaptureSession", inSignature: "", inNames: [], outSignature: "", outNames: []),
            M(name: "WaitForCamera", inSignature: "d", inNames: ["timeout"], outSignature: "", outNames: []),
            M(name: "StopCaptureSession", inSignature: "", inNames: [], outSignature: "", outNames: []),
            M(name: "Close", inSignature: "", inNames: [], outSignature: "", outNames: []),
            M(name: "BeginCapture", inSignature: "", inNames: [], outSignature: "s", outNames: ["name"]),
            M(name: "FetchResult", inSignature: "s", inNames: ["name"], outSignature: "ha{sv}", outNames: ["fd", "info"]),
            M(name: "ReadResult", inSignature: "s", inNames: ["name"], outSignature: "ay", outNames: ["bytes"]),
            M(name: "SetFlashMode", inSignature: "s", inNames: ["mode"], outSignature: "", outNames: []),
            M(name: "ToggleFlash", inSignature: "", inNames: [], outSignature: "s", outNames: ["mode"]),
            M(name: "ChangeCamera", inSignature: "", inNames: [], outSignature: "a{sv}", outNames: ["device"]),
            M(name: "SelectCamera", inSignature: "s", inNames: ["path"], outSignature: "a{sv}", outNames: ["device"]),
            M(name: "SetZoomFactor", inSignature: "d", inNames: ["factor"], outSignature: "d", outNames: ["factor"]),
            M(name: "Zoom", inSignature: "d", inNames: ["scale"], outSignature: "d", outNames: ["factor"]),
            M(name: "FocusAt", inSignature: "dd", inNames: ["x", "y"], outSignature: "dd", outNames: ["x", "y"]),
            M(name: "StartVideoCapture", inSignature: "", inNames: [], outSignature: "", outNames: []),
            M(name: "StopVideoCapture", inSignature: "", inNames: [], outSignature: "", outNames: []),
            M(name: "SetMaximumLocationAccuracy", inSignature: "d", inNames: ["meters"], outSignature: "b", outNames: ["accepted"]),
            M(name: "OpenPreview", inSignature: "a{sv}", inNames: ["options"], outSignature: "ha{sv}", outNames: ["fd", "format"]),
            M(name: "ClosePreview", inSignature: "", inNames: [], outSignature: "", outNames: []),
            M(name: "StartFaceAutoCapture", inSignature: "a{sv}", inNames: ["options"], outSignature: "", outNames: []),
            M(name: "RequestFaceCapture", inSignature: "", inNames: [], outSignature: "", outNames: []),
            M(name: "RestartFaceAutoCapture", inSignature: "", inNames: [], outSignature: "", outNames: []),
            M(name: "StopFaceAutoCapture", inSignature: "", inNames: [], outSignature: "", outNames: []),
        ],
        properties: [
            P(name: "CameraMode", signature: "s", writable: true, emitsChange: .yes),
            P(name: "IsRecordingVideo", signature: "b", writable: false, emitsChange: .yes),
            // Changes with every frame: polled, never signalled.
            P(name: "VideoRecordingProgress", signature: "a{sv}", writable: false, emitsChange: .no),
            P(name: "CurrentDevice", signature: "a{sv}", writable: false, emitsChange: .yes),
            P(name: "CaptureEnabled", signature: "b", writable: false, emitsChange: .yes),
            P(name: "DisabledReasons", signature: "as", writable: false, emitsChange: .yes),
            P(name: "DisabledReasonDetails", signature: "a{ss}", writable: false, emitsChange: .yes),
            P(name: "MaximumLocationAccuracy", signature: "d", writable: false, emitsChange: .yes),
            P(name: "Location", signature: "a{sv}", writable: false, emitsChange: .yes),
            P(name: "PreviewActive", signature: "b", writable: false, emitsChange: .yes),
            // Changes with every frame: polled, never signalled.
            P(name: "PreviewStats", signature: "a{sv}", writable: false, emitsChange: .no),
            P(name: "FaceAutoCaptureState", signature: "s", writable: false, emitsChange: .yes),
        ],
        signals: [
            S(name: "InitialCaptureFinished", signature: "say", names: ["name", "thumbnail"]),
            S(name: "PhotoSigned", signature: "sa{sv}", names: ["name", "info"]),
            S(name: "CaptureDisabled", signature: "as", names: ["reasons"]),
            S(name: "CaptureEnabled", signature: "", names: []),
            S(name: "Failed", signature: "ss", names: ["error", "message"]),
            S(name: "ZoomFactorChanged", signature: "d", names: ["factor"]),
            S(name: "FocusedOnPoint", signature: "dd", names: ["x", "y"]),
            S(name: "DeviceChanged", signature: "a{sv}", names: ["device"]),
            S(name: "FlashModeChanged", signature: "s", names: ["mode"]),
            S(name: "SubjectAreaChanged", signature: "", names: []),
            S(name: "LocationChanged", signature: "a{sv}", names: ["location"]),
            S(name: "VideoRecordingStarted", signature: "", names: []),
            S(name: "VideoRecordingStopped", signature: "", names: []),
            S(name: "VideoRecordingFailed", signature: "ss", names: ["error", "message"]),
            S(name: "VideoThumbnailGenerated", signature: "sayd", names: ["name", "thumbnail", "duration"]),
            S(name: "VideoSigned", signature: "sa{sv}", names: ["name", "info"]),
            S(name: "VideoUnsigned", signature: "sa{sv}", names: ["name", "info"]),
            S(name: "ResultUploaded", signature: "sa{sv}", names: ["name", "info"]),
            S(name: "UploadFailed", signature: "sss", names: ["name", "error", "message"]),
            S(name: "ResultEvicted", signature: "ss", names: ["name", "reason"]),
            S(name: "ResultUpdated", signature: "sa{sv}", names: ["name", "info"]),
            S(name: "FaceDetected", signature: "a{sv}", names: ["detection"]),
            S(name: "CandidateSelectionStarted", signature: "", names: []),
            S(name: "FaceAutoCaptureFinished", signature: "sa{sv}", names: ["name", "detection"]),
        ])
}
