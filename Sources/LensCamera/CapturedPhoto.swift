import FoundationEssentials

/// One photo as a camera delivers it, before signing.
public struct CapturedPhoto: Sendable {
    /// Every camera's thumbnail fits this long side (the InitialCaptureFinished signal carries it).
    public static let thumbnailMaxSide = 320
    public static let thumbnailQuality = 80

    /// The bytes that get signed.
    public var jpeg: [UInt8]
    /// A JPEG whose long side is at most `thumbnailMaxSide`.
    public var thumbnail: [UInt8]
    public var width: Int
    public var height: Int
    /// When the frame was taken (dequeued), not when it was encoded.
    public var captureTime: Date
    /// tiff:Make: the driver for V4L2, "lensd" for the synthetic camera.
    public var make: String
    /// tiff:Model: the card name; "lensd synthetic camera" for the synthetic camera.
    public var model: String
    /// Not sensed by a camera lensd can tell is physical (the synthetic camera, a virtual V4L2
    /// driver): the manifest says digitalSourceType algorithmicMedia, never digitalCapture.
    public var isSynthetic: Bool
    /// Set only when digital zoom above 1 was applied (exif:DigitalZoomRatio).
    public var digitalZoomRatio: Double?
    public var frameNumber: UInt64
    /// The device's V4L2 bus_info ("synthetic" for the synthetic camera); nil: not recorded.
    public var busInfo: String?
    /// A USB camera's ids and serial; nil for any other device.
    public var usb: USBDeviceIdentity?

    public init(jpeg: [UInt8], thumbnail: [UInt8], width: Int, height: Int, captureTime: Date, make: String,
                model: String, isSynthetic: Bool, digitalZoomRatio: Double?, frameNumber: UInt64, busInfo: String? = nil,
                usb: USBDeviceIdentity? = nil) {
        self.jpeg = jpeg
        self.thumbnail = thumbnail
        self.width = width
        self.height = height
        self.captureTime = captureTime
        self.make = make
        self.model = model
        self.isSynthetic = isSynthetic
        self.digitalZoomRatio = digitalZoomRatio
        self.frameNumber = frameNumber
        self.busInfo = busInfo
        self.usb = usb
    }
}
