/// Why a camera operation failed. Each case maps to one org.lensd.Lens1.Error name; the message
/// is for people and goes out as the D-Bus error message.
public enum CameraError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device lacks the feature (→ Unsupported).
    case unsupported(String)
    /// A value outside what the control accepts (→ InvalidArgument).
    case invalidArgument(String)
    /// EACCES on the device node (→ CameraPermissionDenied).
    case permissionDenied(String)
    /// Another program holds the device (→ Busy).
    case busy(String)
    /// The device vanished, or streaming or dequeuing failed (→ CameraSessionFailed).
    case failed(String)
    /// The device cannot focus there (→ SetFocusFailed).
    case focusFailed(String)

    public var description: String {
        switch self {
        case .unsupported(let message), .invalidArgument(let message), .permissionDenied(let message),
             .busy(let message), .failed(let message), .focusFailed(let message):
            message
        }
    }
}
