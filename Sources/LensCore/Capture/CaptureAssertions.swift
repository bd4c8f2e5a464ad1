import C2PA
import FoundationEssentials
import LensCamera

/// The created assertions every lensd capture carries (the C2PA profile docs/conformance.md and docs/files.md describe), photo or video,
/// filled only from what the device and the location source reported — nothing a client sent.
struct CaptureAssertions {
    var captureTime: Date
    var timeZone: TimeZone
    var make: String
    var model: String
    var isSynthetic: Bool
    var digitalZoomRatio: Double?
    var location: LocationFix?
    /// The claim generator, which also names the file's Software.
    var generator: ClaimGeneratorInfo
    /// With it, the device's identity (make = driver, model = card) is recorded beside the metadata.
    var busInfo: String?
    /// A USB camera's ids and serial, recorded with the identity.
    var usb: USBDeviceIdentity?

    /// What `c2pa.metadata` asserts — and, from this same value, the photo's Exif and XMP and
    /// the video's QuickTime metadata, so that none can say otherwise than the manifest.
    var metadata: CaptureMetadata {
        CaptureMetadata(
            captureTime: captureTime, timeZone: timeZone, make: make, model: model,
            digitalZoomRatio: digitalZoomRatio, location: location.map(Self.geoLocation),
            software: "\(generator.name) \(generator.version)")
    }

    func make(thumbnail: [UInt8]?) -> [any Assertion] {
        var assertions: [any Assertion] = [
            ActionsAssertion(when: captureTime, digitalSourceType: isSynthetic ? .algorithmicMedia : .digitalCapture),
            MetadataAssertion(metadata),
        ]
        if let busInfo {
            var identity = CameraIdentityAssertion(driver: make, card: model, busInfo: busInfo, isPhysicalSensor: !isSynthetic)
            identity.usb = usb.map { ($0.vendorID, $0.productID, $0.serial) }
            assertions.append(identity)
        }
        if let thumbnail { assertions.append(ThumbnailAssertion(jpeg: thumbnail)) }
        return assertions
    }

    static func geoLocation(_ fix: LocationFix) -> GeoLocation {
        GeoLocation(latitude: fix.latitude, longitude: fix.longitude, altitude: fix.mode == .threeD ? fix.altitude : nil,
                    horizontalError: fix.horizontalAccuracy, fixTime: fix.fixTime, isDeclared: fix.isDeclared)
    }
}
