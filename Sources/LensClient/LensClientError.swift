import LensBus
import LensContract

/// The SDK's name for the error its delegate's `lensCameraDidFailWithError(_:)` receives. The cases
/// are lensd's (the SDK's `internalError` is `.internal`, `enrollmentError` `.enrollment`,
/// `timestampError` `.timestamp`, `cameraSessionFaled` `.cameraSessionFailed`), each with lensd's sentence.
public typealias LensCameraError = LensClientError

/// Everything a LensCamera call can fail with. The first cases mirror lensd's errors
/// (`org.lensd.Lens1.Error.*`, LensContract's Lens1.ErrorName), mapped by their D-Bus name — never by errno, which
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

    /// lensd's error `name` as this client's case: every name of the contract, sent or reserved,
    /// reads as itself (the switch has no default, so a new name must be given a case).
    init(_ name: Lens1.ErrorName, message m: String) {
        switch name {
        case .internal: self = .internal(m)
        case .enrollment: self = .enrollment(m)
        case .timestamp: self = .timestamp(m)
        case .cameraSessionFailed: self = .cameraSessionFailed(m)
        case .imageSigningFailed: self = .imageSigningFailed(m)
        case .cameraPermissionDenied: self = .cameraPermissionDenied(m)
        case .microphonePermissionDenied: self = .microphonePermissionDenied(m)
        case .locationPermissionDenied: self = .locationPermissionDenied(m)
        case .setFocusFailed: self = .setFocusFailed(m)
        case .notAuthorized: self = .notAuthorized(m)
        case .busy: self = .busy(m)
        case .notStarted: self = .notStarted(m)
        case .notFound: self = .notFound(m)
        case .invalidArgument: self = .invalidArgument(m)
        case .unsupported: self = .unsupported(m)
        case .captureDisabled: self = .captureDisabled(m)
        }
    }

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
        if let lens = Lens1.ErrorName(busName: name) {
            self.init(lens, message: message)
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

    /// The contract's name of the error ("Busy", "CaptureDisabled", …), the client's own
    /// ("Unreachable", "Timeout", "Disconnected"), or the full name of any other D-Bus error.
    public var name: String { parts.name }

    private var parts: (name: String, message: String) {
        switch self {
        case .internal(let m): (Lens1.ErrorName.internal.rawValue, m)
        case .enrollment(let m): (Lens1.ErrorName.enrollment.rawValue, m)
        case .timestamp(let m): (Lens1.ErrorName.timestamp.rawValue, m)
        case .cameraSessionFailed(let m): (Lens1.ErrorName.cameraSessionFailed.rawValue, m)
        case .imageSigningFailed(let m): (Lens1.ErrorName.imageSigningFailed.rawValue, m)
        case .cameraPermissionDenied(let m): (Lens1.ErrorName.cameraPermissionDenied.rawValue, m)
        case .microphonePermissionDenied(let m): (Lens1.ErrorName.microphonePermissionDenied.rawValue, m)
        case .locationPermissionDenied(let m): (Lens1.ErrorName.locationPermissionDenied.rawValue, m)
        case .setFocusFailed(let m): (Lens1.ErrorName.setFocusFailed.rawValue, m)
        case .notAuthorized(let m): (Lens1.ErrorName.notAuthorized.rawValue, m)
        case .busy(let m): (Lens1.ErrorName.busy.rawValue, m)
        case .notStarted(let m): (Lens1.ErrorName.notStarted.rawValue, m)
        case .notFound(let m): (Lens1.ErrorName.notFound.rawValue, m)
        case .invalidArgument(let m): (Lens1.ErrorName.invalidArgument.rawValue, m)
        case .unsupported(let m): (Lens1.ErrorName.unsupported.rawValue, m)
        case .captureDisabled(let m): (Lens1.ErrorName.captureDisabled.rawValue, m)
        case .unreachable(let m): ("Unreachable", m)
        case .timeout(let m): ("Timeout", m)
        case .disconnected(let m): ("Disconnected", m)
        case .bus(let name, let m): (name, m)
        }
    }

    public var description: String { message }
}
