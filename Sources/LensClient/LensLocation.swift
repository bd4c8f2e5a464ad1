import FoundationEssentials
import LensBus

/// A location fix as lensd reports it (the Location property, LocationChanged).
public struct LensLocation: Sendable, Equatable {
    public enum Mode: String, Sendable {
        case twoD = "2d"
        case threeD = "3d"
        /// Configured by the administrator rather than measured.
        case declared
    }

    public var latitude: Double
    public var longitude: Double
    /// Metres; only with a 3D or declared fix.
    public var altitude: Double?
    /// The horizontal accuracy radius in metres — what SetMaximumLocationAccuracy compares.
    public var accuracy: Double
    /// The fix's own time (the receiver's clock), not when lensd received it.
    public var fixTime: Date
    public var mode: Mode

    /// nil for the empty a{sv} lensd sends when there is no fix.
    init?(_ fields: Fields) throws(LensClientError) {
        guard !fields.isEmpty else { return nil }
        latitude = try fields.double("latitude")
        longitude = try fields.double("longitude")
        altitude = fields.optionalDouble("altitude")
        accuracy = try fields.double("accuracy")
        fixTime = Date(timeIntervalSince1970: Double(try fields.uint64("fixTime")) / 1_000_000)
        mode = try fields.wire("mode", as: Mode.self)
    }
}
