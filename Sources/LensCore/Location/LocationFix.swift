import FoundationEssentials

/// How many dimensions the receiver solved for. The raw values are the wire strings of the
/// `Location` property's `mode` key.
public enum FixMode: String, Sendable, Codable {
    case none
    case twoD = "2d"
    case threeD = "3d"
}

/// One position as the capture pipeline records it.
/// Codable: a recording keeps its start's fix beside its journal (lensd's RecordingFacts).
public struct LocationFix: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level; nil unless the fix is 3D (a 2D fix has no altitude at all,
    /// and writing a made-up one into a manifest would be a false claim).
    public var altitude: Double?
    /// Radius in metres of the horizontal error estimate (gpsd's `eph`, see GPSDFix.swift);
    /// `.infinity` when the source gave no estimate, so no threshold accepts it.
    public var horizontalAccuracy: Double
    public var mode: FixMode
    /// The fix's own time, from the receiver: recorded as exif:GPSTimeStamp/GPSDateStamp so a
    /// verifier can cross-check the system clock.
    public var fixTime: Date
    /// When this host received the fix, from the provider's clock; only used for staleness.
    public var receivedAt: Date
    /// A configured position for a stationary camera, not a measurement.
    public var isDeclared: Bool

    public init(
        latitude: Double, longitude: Double, altitude: Double?, horizontalAccuracy: Double,
        mode: FixMode, fixTime: Date, receivedAt: Date, isDeclared: Bool = false
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.mode = mode
        self.fixTime = fixTime
        self.receivedAt = receivedAt
        self.isDeclared = isDeclared
    }
}
