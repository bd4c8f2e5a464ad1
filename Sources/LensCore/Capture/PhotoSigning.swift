import C2PA
import Foundation

/// Turns a captured photo into signed JPEG bytes (CaptureAssertions + the JPEG's data hash).
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
        let assertions = CaptureAssertions(
            captureTime: photo.captureTime, timeZone: timeZone, make: photo.make, model: photo.model,
            isSynthetic: photo.isSynthetic, digitalZoomRatio: photo.digitalZoomRatio, location: location)
        let writer = ManifestWriter(generator: generator, assertions: assertions.make(thumbnail: includeThumbnail ? photo.thumbnail : nil),
                                    signer: signer)
        return try JPEGSigner(writer: writer).sign(photo.jpeg)
    }
}
