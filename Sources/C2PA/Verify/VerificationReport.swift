import FoundationEssentials
import LensCrypto

/// What a verification found: the verdict, every status code, and what the manifests say.
public struct VerificationReport: Sendable {
    public var state: ValidationState
    /// The active manifest's statuses (c2pa-rs's `validation_results.activeManifest`).
    public var statuses: [ValidationStatus]
    /// What validating each ingredient's manifest found beyond what its writer recorded.
    public var ingredientDeltas: [IngredientDelta] = []
    public var manifestLabel: String?
    public var claimVersion: Int?
    public var claimGenerator: String?
    public var signer: SignerSummary?
    public var actions: [ActionSummary]
    /// The `c2pa.metadata` assertion, when present.
    public var metadata: JSONValue?
    /// Every manifest in the chain: the active one first, then its ingredients', depth first.
    public var manifests: [ManifestSummary] = []
    /// The manifest store as read, and its bytes (the JUMBF), for reports that show all of it.
    public var store: ManifestStore?
    public var storeBytes: [UInt8]?

    public var failures: [ValidationStatus] { statuses.filter { $0.kind == .failure } }
    public var ingredientFailures: [ValidationStatus] {
        ingredientDeltas.flatMap(\.statuses).filter { $0.kind == .failure }
    }
}

/// c2pa-rs's `ingredientDeltas` entry: the ingredient assertion and the statuses it gained.
public struct IngredientDelta: Sendable {
    public var ingredientAssertionURI: String
    public var statuses: [ValidationStatus]
}

public struct SignerSummary: Sendable {
    public var subject: DistinguishedName
    public var issuer: DistinguishedName
    public var notBefore: Date
    public var notAfter: Date
    public var algorithm: String
    /// The RFC 3161 genTime, when a time-stamp verified and its TSA is trusted.
    public var timeStamp: Date?
    /// Who vouches for `timeStamp`: the TSA certificate's subject.
    public var timeStampAuthority: DistinguishedName?
    /// What a usable stapled OCSP response said; nil when there is none (or it was ignored).
    public var revocation: Revocation? = nil
    /// The trust list entry the signer's chain reaches (trusted, or withdrawn before the signing
    /// time); nil when no list names its CA.
    public var trustListing: TrustListing? = nil
}

/// One manifest as `verify --detailed` shows it.
public struct ManifestSummary: Sendable {
    public var label: String
    public var isUpdate: Bool
    public var claimVersion: Int?
    public var claimGenerator: String?
    public var title: String?
    public var signer: SignerSummary?
    public var actions: [ActionSummary] = []
    /// Every assertion label the claim references, in claim order.
    public var assertions: [String] = []
    public var ingredients: [IngredientSummary] = []
    /// One line per CAWG identity assertion: its signature type and, for X.509, signer and verdict.
    public var identities: [String] = []
    /// False when c2pa-rs could not load the manifest (an assertion that does not decode).
    public var loads = true
}

public struct IngredientSummary: Sendable {
    public var title: String?
    public var relationship: String?
    /// The label of the ingredient's manifest in this store, when it has one.
    public var manifest: String?
}

public struct ActionSummary: Sendable, Codable, Equatable {
    public var action: String
    public var when: String?
    public var digitalSourceType: String?
}

/// Reads the capture fields back from `c2pa.metadata`.
public extension VerificationReport {
    var location: (latitude: Double, longitude: Double, accuracy: Double?)? {
        guard let lat = metadata?["exif:GPSLatitude"]?.stringValue.flatMap(Self.coordinate),
              let lon = metadata?["exif:GPSLongitude"]?.stringValue.flatMap(Self.coordinate) else { return nil }
        return (lat, lon, metadata?["exif:GPSHPositioningError"]?.stringValue.flatMap(Self.rational))
    }

    /// "Make Model", or the model alone when it already names the make.
    var device: String? {
        let make = metadata?["tiff:Make"]?.stringValue, model = metadata?["tiff:Model"]?.stringValue
        guard let make, let model, !model.lowercased().hasPrefix(make.lowercased()) else { return model ?? make }
        return "\(make) \(model)"
    }

    var captureTime: String? {
        metadata?["exif:DateTimeOriginal"]?.stringValue ?? actions.first?.when
    }

    /// "DDD,MM.mmmK" or "DDD,MM,SSK" → signed decimal degrees.
    static func coordinate(_ text: String) -> Double? {
        guard let hemisphere = text.last, "NSEW".contains(hemisphere) else { return nil }
        let parts = text.dropLast().split(separator: ",").map { Double($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        let values = parts.map { $0! }
        var degrees = values[0]
        if values.count > 1 { degrees += values[1] / 60 }
        if values.count > 2 { degrees += values[2] / 3600 }
        return "SW".contains(hemisphere) ? -degrees : degrees
    }

    static func rational(_ text: String) -> Double? {
        let parts = text.split(separator: "/").compactMap { Double($0) }
        guard parts.count == 2, parts[1] != 0 else { return Double(text) }
        return parts[0] / parts[1]
    }
}
