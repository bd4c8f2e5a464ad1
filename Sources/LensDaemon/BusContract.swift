import LensBus

/// Where the exported objects live, and the Session's signals. Methods and properties are in each
/// object's table (Manager.table, Session.table), with their handlers and access rules; a test
/// compares the daemon's introspection with dbus/org.lensd.Lens1.xml, member by member.
enum BusContract {
    static let busName = "org.lensd.Lens1"
    static let managerPath = "/org/lensd/Lens1"
    /// Sessions live at sessionsPath/N.
    static let sessionsPath = "/org/lensd/Lens1/session"
    static let managerInterface = "org.lensd.Lens1.Manager"
    static let sessionInterface = "org.lensd.Lens1.Session"

    typealias S = InterfaceDescription.Signal

    /// Sent to the session's owner only (unicast), never broadcast.
    static let sessionSignals: [S] = [
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
    ]
}
