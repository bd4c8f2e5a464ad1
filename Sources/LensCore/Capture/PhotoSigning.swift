import C2PA
import FoundationEssentials
import LensCamera
import LensNetwork

/// Turns a captured photo into signed JPEG bytes (CaptureAssertions + the JPEG's data hash).
public struct PhotoSigning: Sendable {
    public var signer: ClaimSigner
    public var generator: ClaimGeneratorInfo
    public var includeThumbnail: Bool
    /// nil: the system's local time at the capture (`LocalTime`).
    public var timeZone: TimeZone?
    /// nil: no time-stamp is asked for.
    public var timeStamping: TimeStamping?

    /// The signed JPEG, and its time-stamp's outcome (nil without time-stamping).
    public struct Signed: Sendable {
        public var jpeg: [UInt8]
        public var timeStamp: TimeStamping.Outcome?
    }

    public init(signer: ClaimSigner, generator: ClaimGeneratorInfo, includeThumbnail: Bool = false,
                timeZone: TimeZone? = nil, timeStamping: TimeStamping? = nil) {
        self.timeStamping = timeStamping
        self.signer = signer
        self.generator = generator
        self.includeThumbnail = includeThumbnail
        self.timeZone = timeZone
    }

    public func sign(_ photo: CapturedPhoto, location: LocationFix?) throws -> Signed {
        let assertions = CaptureAssertions(
            captureTime: photo.captureTime, timeZone: timeZone ?? LocalTime.zone(at: photo.captureTime), make: photo.make, model: photo.model,
            isSynthetic: photo.isSynthetic, digitalZoomRatio: photo.digitalZoomRatio, location: location, generator: generator, busInfo: photo.busInfo,
            usb: photo.usb)
        let stamper = timeStamping?.stamper(for: signer)
        let writer = ManifestWriter(generator: generator, assertions: assertions.make(thumbnail: includeThumbnail ? photo.thumbnail : nil),
                                    signer: signer, timeStamper: stamper)
        let jpeg = try JPEGSigner(writer: writer, metadata: assertions.metadata).sign(photo.jpeg)
        return Signed(jpeg: jpeg, timeStamp: stamper?.outcome)
    }
}
