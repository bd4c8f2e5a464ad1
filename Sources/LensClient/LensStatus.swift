import FoundationEssentials
import LensBus

/// The daemon's state (the Manager's properties): nothing personal, the same for every caller.
public struct LensStatus: Sendable, Equatable {
    public var version: String
    public var cameraPresent: Bool
    /// "enrolled", "missing", "expired", "invalid" or "revoked" (its CA says so over OCSP).
    public var enrollmentState: String
    /// When the device certificate expires; nil when there is none.
    public var certificateNotAfter: Date?
    /// From when the certificate is due for renewal (lensd's renew-before ahead of its expiry).
    public var certificateRenewAfter: Date?
    /// The user whose session holds the camera; nil when it is free.
    public var cameraHolder: String?
    /// The per-user caps on stored results; storing past them deletes the oldest.
    public var resultLimits: LensResultLimits
    /// How enrollment over EST goes (`enrollment = est`); nil with other enrollments, or before
    /// the first attempt.
    public var est: LensESTStatus?

    init(_ fields: Fields) throws(LensClientError) {
        version = try fields.string("Version")
        cameraPresent = try fields.bool("CameraPresent")
        enrollmentState = try fields.string("EnrollmentState")
        let notAfter = try fields.uint64("CertificateNotAfter")
        certificateNotAfter = notAfter == 0 ? nil : Date(timeIntervalSince1970: Double(notAfter))
        let renewAfter = try fields.uint64("CertificateRenewAfter")
        certificateRenewAfter = renewAfter == 0 ? nil : Date(timeIntervalSince1970: Double(renewAfter))
        let holder = try fields.string("CameraHolder")
        cameraHolder = holder.isEmpty ? nil : holder
        resultLimits = try LensResultLimits(try fields.nested("ResultLimits"))
        // Absent from a daemon older than EST enrollment.
        let est = try? fields.nested("ESTState")
        self.est = est.flatMap { $0.isEmpty ? nil : LensESTStatus($0) }
    }
}

/// Manager.ESTState: when lensd last asked its EST server, when it asks next, and why the last
/// attempt gave no certificate (nil after a success).
public struct LensESTStatus: Sendable, Equatable {
    public var lastAttempt: Date?
    public var nextAttempt: Date?
    public var lastError: String?

    init(_ fields: Fields) {
        lastAttempt = fields.optionalDate("last_attempt")
        nextAttempt = fields.optionalDate("next_attempt")
        lastError = fields.optionalString("last_error")
    }
}

/// Why capture is disabled: the SDK's `LensCaptureStatus`, whose set
/// `lensCameraDidDisableCapture(for:)` receives. A struct rather than the SDK's enum: later
/// daemons add reasons ("timestamp"), and a client must still show them.
public struct LensCaptureStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let enrollment = LensCaptureStatus(rawValue: "enrollment")
    public static let camera = LensCaptureStatus(rawValue: "camera")
    public static let location = LensCaptureStatus(rawValue: "location")
    public static let storage = LensCaptureStatus(rawValue: "storage")
    public static let timestamp = LensCaptureStatus(rawValue: "timestamp")
    /// audio = on and the audio device cannot capture.
    public static let microphone = LensCaptureStatus(rawValue: "microphone")

    public var description: String { rawValue }
}

public enum LensCameraMode: String, Sendable, CaseIterable {
    case photo, video
}

/// This camera's session as lensd sees it (the Session's properties; lensd's, no SDK counterpart).
public struct LensSessionStatus: Sendable, Equatable {
    public var captureEnabled: Bool
    public var disabledReasons: [LensCaptureStatus]
    /// What each reason means now, in words (e.g. for location: gpsd unreachable at HOST:PORT,
    /// no fix yet, or a fix coarser than the threshold). Empty from a daemon that does not say.
    public var disabledReasonDetails: [LensCaptureStatus: String]
    /// The session's threshold in metres: a fix less accurate than this does not count.
    public var maximumLocationAccuracy: Double
    public var location: LensLocation?
    public var cameraMode: LensCameraMode
    /// nil when lensd has no camera.
    public var currentDevice: LensCaptureDevice?

    init(_ fields: Fields) throws(LensClientError) {
        captureEnabled = try fields.bool("CaptureEnabled")
        disabledReasons = try fields.strings("DisabledReasons").map(LensCaptureStatus.init(rawValue:))
        disabledReasonDetails = Dictionary(uniqueKeysWithValues: (fields.optionalStringDictionary("DisabledReasonDetails") ?? [:])
            .map { (LensCaptureStatus(rawValue: $0.key), $0.value) })
        maximumLocationAccuracy = try fields.double("MaximumLocationAccuracy")
        location = try LensLocation(try fields.nested("Location"))
        cameraMode = try fields.wire("CameraMode", as: LensCameraMode.self)
        let device = try fields.nested("CurrentDevice")
        currentDevice = device.isEmpty ? nil : try LensCaptureDevice(device)
    }
}
