/// The flash setting; the raw values are the D-Bus wire strings.
public enum FlashMode: String, Sendable, CaseIterable {
    case off, on, auto
}
