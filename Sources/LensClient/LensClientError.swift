import LensBus

/// Everything a LensCamera call can fail with. The first cases mirror lensd's errors
/// (`org.lensd.Lens1.Error.*`, DESIGN.md), mapped by their D-Bus name — never by errno, which
/// plain sd-bus callers see as -EIO for every custom name. The last ones are the client's own.
/// Each carries the sentence the daemon (or the client) wrote.
public enum LensClientError: Error, Sendable, Equatable, CustomStringConvertible {
    case `internal`(String)
    case enrollment(String)
    case timestamp(String)
    case cameraSessionFailed(String)
    case imageSigningFailed(String)
    case cameraPermissionDenied(String)
    case microphonePermissionDenied(String)
    case locationPermissionDenied(String)
    case setFocusFailed(String)
    case notAuthorized(String)
    case busy(String)
    case notStarted(String)
    case notFound(String)
    case invalidArgument(String)
    case unsupported(String)
    case captureDisabled(String)
    /// No bus at that address, or no lensd on it.
    case unreachable(String)
    /// lensd did not answer in time.
    case timeout(String)
    /// The bus connection, lensd, or this camera's session went away.
    case disconnected(String)
    /// Any other D-Bus error, by its name (e.g. org.freedesktop.DBus.Error.InvalidArgs).
    case bus(name: String, message: String)

    /// lensd's errors by the last component of their D-Bus name: those it sends and those the
    /// contract reserves (LocationPermissionDenied).
    private static let lensErrors: [String: @Sendable (String) -> LensClientError] = [
        "Internal": LensClientError.internal, "Enrollment": enrollment, "Timestamp": timestamp,
        "CameraSessionFailed": cameraSessionFailed, "ImageSigningFailed": imageSigningFailed,
        "CameraPermissionDenied": cameraPermissionDenied,
        "MicrophonePermissionDenied": microphonePermissionDenied,
        "LocationPermissionDenied": locationPermissionDenied, "SetFocusFailed": setFocusFailed,
        "NotAuthorized": notAuthorized, "Busy": busy, "NotStarted": notStarted, "NotFound": notFound,
        "InvalidArgument": invalidArgument, "Unsupported": unsupported, "CaptureDisabled": captureDisabled,
    ]

    /// The names of lensd's errors this client reads as themselves.
    static var lensErrorNames: [String] { Array(lensErrors.keys) }

    /// The bus's own errors that mean one of the client cases. Their messages are written for
    /// D-Bus developers (a policy rule dump, ".service files"): a person gets the cause and what to do.
    private static let busErrors: [String: @Sendable (String) -> LensClientError] = [
        // The bus policy refused the call: the caller is neither root nor in group lens.
        "org.freedesktop.DBus.Error.AccessDenied": { _ in
            let user = CurrentUser.name
            return notAuthorized("\(user) may not use lensd (only root and members of group lens may): "
                + "an administrator can run `usermod -aG lens \(user)`, then log in again")
        },
        "org.freedesktop.DBus.Error.ServiceUnknown": { _ in notRunning },
        "org.freedesktop.DBus.Error.NameHasNoOwner": { _ in notRunning },
        "org.freedesktop.DBus.Error.NoReply": timeout,
        "org.freedesktop.DBus.Error.Timeout": timeout,
        "org.freedesktop.DBus.Error.Disconnected": disconnected,
        // The session object is gone: lensd closed it (idle timeout) or restarted.
        "org.freedesktop.DBus.Error.UnknownObject": disconnected,
    ]

    private static let notRunning = unreachable(
        "lensd is not running (nobody owns \(Lens1.busName) on the bus): see `systemctl status lensd`")

    /// A D-Bus error name and message — from a method reply or a Failed signal.
    init(name: String, message: String) {
        if name.hasPrefix(Lens1.errorPrefix), let make = Self.lensErrors[String(name.dropFirst(Lens1.errorPrefix.count))] {
            self = make(message)
        } else if let make = Self.busErrors[name] {
            self = make(message)
        } else {
            self = .bus(name: name, message: message)
        }
    }

    init(_ error: BusError) {
        self.init(name: error.name, message: error.message)
    }

    /// The sentence that says what happened.
    public var message: String { parts.message }

    /// DESIGN.md's name of the error ("Busy", "CaptureDisabled", …), the client's own
    /// ("Unreachable", "Timeout", "Disconnected"), or the full name of any other D-Bus error.
    public var name: String { parts.name }

    private var parts: (name: String, message: String) {
        switch self {
        case .internal(let m): ("Internal", m)
        case .enrollment(let m): ("Enrollment", m)
        case .timestamp(let m): ("Timestamp", m)
        case .cameraSessionFailed(let m): ("CameraSessionFailed", m)
        case .imageSigningFailed(let m): ("ImageSigningFailed", m)
        case .cameraPermissionDenied(let m): ("CameraPermissionDenied", m)
        case .microphonePermissionDenied(let m): ("MicrophonePermissionDenied", m)
        case .locationPermissionDenied(let m): ("LocationPermissionDenied", m)
        case .setFocusFailed(let m): ("SetFocusFailed", m)
        case .notAuthorized(let m): ("NotAuthorized", m)
        case .busy(let m): ("Busy", m)
        case .notStarted(let m): ("NotStarted", m)
        case .notFound(let m): ("NotFound", m)
        case .invalidArgument(let m): ("InvalidArgument", m)
        case .unsupported(let m): ("Unsupported", m)
        case .captureDisabled(let m): ("CaptureDisabled", m)
        case .unreachable(let m): ("Unreachable", m)
        case .timeout(let m): ("Timeout", m)
        case .disconnected(let m): ("Disconnected", m)
        case .bus(let name, let m): (name, m)
        }
    }

    public var description: String { message }
}
