/// The camera controls whose failure lensd also reports as a Failed signal.
public enum LensControl: String, Sendable, Equatable {
    case flashMode, camera, zoom, focus
}
