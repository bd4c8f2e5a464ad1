import FoundationEssentials

/// A configured position for a camera that never moves (root's config only). It is always
/// fresh, and `isDeclared` makes the manifest say exif:GPSProcessingMethod "MANUAL", so nobody
/// mistakes it for a measurement.
public struct DeclaredLocation: Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level, if configured; it makes the fix 3D.
    public var altitude: Double?
    /// The radius in metres the operator vouches for; the same gate applies as for gpsd.
    public var accuracy: Double

    public init(latitude: Double, longitude: Double, altitude: Double?, accuracy: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
    }

    /// The declared position as a fix taken `now`.
    public func fix(now: Date) -> LocationFix {
        LocationFix(
            latitude: latitude, longitude: longitude, altitude: altitude,
            horizontalAccuracy: accuracy, mode: altitude == nil ? .twoD : .threeD,
            fixTime: now, receivedAt: now, isDeclared: true)
    }
}
