import Glibc
import LensSystem

extension SystemError {
    /// A failed call on a V4L2 node as the Camera boundary reports it, so callers see the
    /// permission and busy cases by name.
    package func cameraError(path: String) -> CameraError {
        switch errno.rawValue {
        case EACCES, EPERM:
            .permissionDenied("no permission to open \(path) (\(self)); lensd's user needs access to the video device")
        case EBUSY:
            .busy("\(path) is in use by another program (\(self))")
        default:
            .failed("\(path): \(self)")
        }
    }
}
