/// A camera device as ListDevices reports it.
public struct CameraDescription: Sendable, Equatable {
    /// "/dev/video0", or "synthetic:back" / "synthetic:front".
    public var path: String
    /// The card name.
    public var name: String
    public var driver: String
    public var busInfo: String
    public var position: CameraPosition
    /// A virtual driver (vivid, v4l2loopback) or the synthetic camera: not a sensor.
    public var isVirtual: Bool
    /// Pixel formats as fourcc strings, e.g. ["MJPG", "YUYV"].
    public var formats: [String]
    /// A USB camera's ids and serial from sysfs; nil for any other device.
    public var usb: USBDeviceIdentity?

    public init(path: String, name: String, driver: String, busInfo: String,
                position: CameraPosition, isVirtual: Bool, formats: [String], usb: USBDeviceIdentity? = nil) {
        self.path = path
        self.name = name
        self.driver = driver
        self.busInfo = busInfo
        self.position = position
        self.isVirtual = isVirtual
        self.formats = formats
        self.usb = usb
    }
}
