import FoundationEssentials
import LensSystem

/// Where the device was when it captured, as its location source reported it.
public struct GeoLocation: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level; only for a 3D fix.
    public var altitude: Double?
    /// Horizontal accuracy radius in metres.
    public var horizontalError: Double
    /// The fix's own time, so verifiers can cross-check the system clock.
    public var fixTime: Date
    /// A location declared in the configuration rather than measured.
    public var isDeclared: Bool

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, horizontalError: Double,
                fixTime: Date, isDeclared: Bool = false) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalError = horizontalError
        self.fixTime = fixTime
        self.isDeclared = isDeclared
    }
}

/// What the capture pipeline knows about a photo; every field comes from the device, never a client.
public struct CaptureMetadata: Sendable, Equatable {
    public var captureTime: Date
    public var timeZone: TimeZone
    public var make: String
    public var model: String
    public var digitalZoomRatio: Double?
    public var location: GeoLocation?
    /// tiff:Software: the claim generator that wrote the file ("lensd 1.0").
    public var software: String?

    public init(captureTime: Date, timeZone: TimeZone = .current, make: String, model: String,
                digitalZoomRatio: Double? = nil, location: GeoLocation? = nil, software: String? = nil) {
        self.captureTime = captureTime
        self.timeZone = timeZone
        self.make = make
        self.model = model
        self.digitalZoomRatio = digitalZoomRatio
        self.location = location
        self.software = software
    }

    /// tiff:Orientation 1 (top-left): lensd stores every picture upright, as it is to be shown.
    public var orientation: Int { 1 }

    /// exif:DateTimeOriginal as the manifest and XMP write it: the local wall time with
    /// milliseconds and offset, "2026-11-29T13:00:00.123+01:00".
    public var dateTimeOriginal: String { Timestamps.iso8601(captureTime, in: timeZone, milliseconds: true) }
}

/// A latitude or longitude in the one rounding every form lensd writes shares (the manifest's and
/// XMP's "DDD,MM.mmmmmmK", Exif's rationals): whole degrees and millionths of a minute (≈ 2 mm).
struct RoundedCoordinate: Equatable {
    var degrees: Int
    var microMinutes: Int
    var isNegative: Bool

    init(_ value: Double) {
        let total = (abs(value) * 60_000_000).rounded()
        degrees = Int(total / 60_000_000)
        microMinutes = Int(total - Double(degrees) * 60_000_000)
        isNegative = value < 0
    }
}

/// `c2pa.metadata`: JSON-LD with the Exif/TIFF fields C2PA's metadata assertion allows and lensd
/// records (docs/files.md lists them), XMP value formats.
public struct MetadataAssertion: Assertion {
    public var metadata: CaptureMetadata
    public var label: String { Labels.metadata }

    public init(_ metadata: CaptureMetadata) { self.metadata = metadata }

    public func content() throws -> AssertionContent {
        .json(try JSONValue.object(fields()).serialized())
    }

    func fields() -> [String: JSONValue] {
        let m = metadata
        var fields: [String: JSONValue] = [
            "@context": .object(["exif": .string("http://ns.adobe.com/exif/1.0/"), "tiff": .string("http://ns.adobe.com/tiff/1.0/")]),
            "exif:DateTimeOriginal": .string(m.dateTimeOriginal),
            "exif:OffsetTimeOriginal": .string(Timestamps.offset(of: m.captureTime, in: m.timeZone)),
            "tiff:Make": .string(m.make),
            "tiff:Model": .string(m.model),
            "tiff:Orientation": .number(Double(m.orientation)),
        ]
        if let software = m.software { fields["tiff:Software"] = .string(software) }
        if let zoom = m.digitalZoomRatio { fields["exif:DigitalZoomRatio"] = .string(Self.rational(zoom, denominator: 100)) }
        guard let fix = m.location else { return fields }
        // 2.3: GPSHPositioningError is an Exif 2.3 tag.
        fields["exif:GPSVersionID"] = .string(ExifWriter.gpsVersion.map(String.init).joined(separator: "."))
        fields["exif:GPSLatitude"] = .string(Self.coordinate(fix.latitude, positive: "N", negative: "S"))
        fields["exif:GPSLongitude"] = .string(Self.coordinate(fix.longitude, positive: "E", negative: "W"))
        if let altitude = fix.altitude {
            fields["exif:GPSAltitudeRef"] = .number(altitude < 0 ? 1 : 0)
            fields["exif:GPSAltitude"] = .string(Self.rational(abs(altitude), denominator: 100))
        }
        fields["exif:GPSHPositioningError"] = .string(Self.rational(fix.horizontalError, denominator: 100))
        fields["exif:GPSDateStamp"] = .string(Timestamps.exifDateUTC(fix.fixTime))
        fields["exif:GPSTimeStamp"] = .string(Timestamps.rfc3339UTC(fix.fixTime))
        if fix.isDeclared { fields["exif:GPSProcessingMethod"] = .string("MANUAL") }
        return fields
    }

    /// XMP GPSCoordinate "DDD,MM.mmmmmmK": whole degrees, decimal minutes (6 places ≈ 2 mm).
    static func coordinate(_ value: Double, positive: String, negative: String) -> String {
        let rounded = RoundedCoordinate(value)
        return String(cFormat: "%d,%02d.%06d", rounded.degrees, rounded.microMinutes / 1_000_000, rounded.microMinutes % 1_000_000)
            + (rounded.isNegative ? negative : positive)
    }

    /// XMP rational "num/den".
    static func rational(_ value: Double, denominator: Int) -> String {
        "\(numerator(value, denominator: denominator))/\(denominator)"
    }

    /// The numerator every rational lensd writes (XMP's "num/den", Exif's RATIONAL) rounds `value` to.
    static func numerator(_ value: Double, denominator: Int) -> Int {
        Int((value * Double(denominator)).rounded())
    }
}
