import C2PA
import Foundation

/// Turns a captured photo into signed JPEG bytes: the C2PA profile of DESIGN.md, filled only from
/// what the device and the location source reported — nothing a client sent.
public struct PhotoSigning: Sendable {
    public var signer: ClaimSigner
    public var generator: ClaimGeneratorInfo
    public var includeThumbnail: Bool
    public var timeZone: TimeZone

    public init(signer: ClaimSigner, generator: ClaimGeneratorInfo, includeThumbnail: Bool = false,
                timeZone: TimeZone = .current) {
        self.signer = signer
        self.generator = generator
        self.includeThumbnail = includeThumbnail
        self.timeZone = timeZone
    }

    public func sign(_ photo: CapturedPhoto, location: LocationFix?) throws -> [UInt8] {
        let metadata = CaptureMetadata(
            captureTime: photo.captureTime, timeZone: timeZone, make: photo.make, model: photo.model,
            digitalZoomRatio: photo.digitalZoomRatio, location: location.map(Self.geoLocation))
        var assertions: [any Assertion] = [
            ActionsAssertion(when: photo.captureTime,
                             digitalSourceType: photo.isSynthetic ? .algorithmicMedia : .digitalCapture),
            MetadataAssertion(metadata),
        ]
        if includeThumbnail { assertions.append(ThumbnailAssertion(jpeg: photo.thumbnail)) }
        let writer = ManifestWriter(generator: generator, assertions: assertions, signer: signer)
        return try JPEGSigner(writer: writer).sign(photo.jpeg)
    }

    static func geoLocation(_ fix: LocationFix) -> GeoLocation {
        GeoLocation(latitude: fix.latitude, longitude: fix.longitude, altitude: fix.mode == .threeD ? fix.altitude : nil,
                    horizontalError: fix.horizontalAccuracy, fixTime: fix.fixTime, isDeclared: fix.isDeclared)
    }
}
