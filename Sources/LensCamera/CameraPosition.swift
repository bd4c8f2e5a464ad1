/// Where a camera faces; the raw values are the D-Bus wire strings.
public enum CameraPosition: String, Sendable, CaseIterable {
    case back, front, external, unspecified
}
