import C2PA
import FoundationEssentials
import Glibc
import LensCamera
import LensMedia
import LensNetwork
import LensStorage
import LensSystem

/// Signs a finalized recording where it lies: the manifest goes into the reserve the recorder left
/// after `ftyp`, with the hash computed while recording, so signing costs the same for ten seconds
/// or an hour. Only when the manifest outgrows the reserve is the file rewritten with the box
/// inserted (every sample shifts, and the hash is computed again).
public struct VideoSigning: Sendable {
    /// What the recording's manifest says about it.
    public struct Facts: Sendable, Codable {
        public var startTime: Date
        public var make: String
        public var model: String
        public var isSynthetic: Bool
        public var digitalZoomRatio: Double?
        /// The device's bus_info; nil in journals written before it was recorded.
        public var busInfo: String?
        /// A USB camera's ids and serial; nil for any other device (and in older journals).
        public var usb: USBDeviceIdentity?

        public init(startTime: Date, make: String, model: String, isSynthetic: Bool, digitalZoomRatio: Double?,
                    busInfo: String? = nil, usb: USBDeviceIdentity? = nil) {
            self.startTime = startTime
            self.make = make
            self.model = model
            self.isSynthetic = isSynthetic
            self.digitalZoomRatio = digitalZoomRatio
            self.busInfo = busInfo
            self.usb = usb
        }
    }

    public var signer: ClaimSigner
    public var generator: ClaimGeneratorInfo
    /// nil: the system's local time at the capture (`LocalTime`).
    public var timeZone: TimeZone?
    /// nil: no time-stamp is asked for.
    public var timeStamping: TimeStamping?

    public init(signer: ClaimSigner, generator: ClaimGeneratorInfo, timeZone: TimeZone? = nil,
                timeStamping: TimeStamping? = nil) {
        self.timeStamping = timeStamping
        self.signer = signer
        self.generator = generator
        self.timeZone = timeZone
    }

    /// Returns the time-stamp's outcome (nil without time-stamping).
    @discardableResult
    public func sign(_ video: FinalizedMP4, facts: Facts, location: LocationFix?) throws -> TimeStamping.Outcome? {
        let assertions = facts.assertions(location: location, generator: generator, timeZone: timeZone)
        let stamper = timeStamping?.stamper(for: self.signer)
        let signer = MP4Signer(writer: ManifestWriter(generator: generator, assertions: assertions.make(thumbnail: nil),
                                                      signer: self.signer, timeStamper: stamper))
        do {
            try signer.signInPlace(path: video.path, reserve: video.reserve, hash: video.bmffHash)
        } catch C2PAError.doesNotFit {
            let directory = String(video.path[..<(video.path.lastIndex(of: "/") ?? video.path.startIndex)])
            // Rewritten beside itself (a StagedFile, whose ".tmp-" name ResultStore removes at start
            // if a crash leaves it), durably, then renamed over it; then the directory entry.
            try signer.sign(inputPath: video.path, outputPath: video.path)
            try FileSystem.syncDirectory(directory)
        }
        return stamper?.outcome
    }
}

public extension VideoSigning.Facts {
    /// What the recording's `c2pa.metadata` will assert, for its QuickTime metadata at the start:
    /// made as `VideoSigning.sign` makes it at the stop (same generator and `timeZone`).
    func metadata(location: LocationFix?, generator: ClaimGeneratorInfo, timeZone: TimeZone? = nil) -> CaptureMetadata {
        assertions(location: location, generator: generator, timeZone: timeZone).metadata
    }

    internal func assertions(location: LocationFix?, generator: ClaimGeneratorInfo, timeZone: TimeZone?) -> CaptureAssertions {
        CaptureAssertions(
            captureTime: startTime, timeZone: timeZone ?? LocalTime.zone(at: startTime), make: make, model: model,
            isSynthetic: isSynthetic, digitalZoomRatio: digitalZoomRatio, location: location, generator: generator, busInfo: busInfo,
            usb: usb)
    }
}
