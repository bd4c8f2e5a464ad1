import Glibc

/// A failed system call on a V4L2 node: which operation and errno. Mapped to CameraError at the
/// Camera boundary (`cameraError(path:)`), so callers see permission and busy cases by name.
public struct V4L2Errno: Error, Equatable, CustomStringConvertible {
    public var operation: String
    public var code: Int32

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }

    func cameraError(path: String) -> CameraError {
        switch code {
        case EACCES, EPERM:
            .permissionDenied("no permission to open \(path) (\(self)); lensd's user needs access to the video device")
        case EBUSY:
            .busy("\(path) is in use by another program (\(self))")
        default:
            .failed("\(path): \(self)")
        }
    }
}
