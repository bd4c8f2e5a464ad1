/// Whether photos need a location (`--location`, config key `location`).
public enum LocationPolicy: String, Sendable {
    /// Capture is disabled (reason `location`) until a fresh fix within the threshold exists.
    case required
    /// The fix is recorded when one within the threshold exists; otherwise no location at all.
    case optional
    /// No gpsd connection and no location.
    case never
}
