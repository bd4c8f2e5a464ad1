/// `org.lensd.camera.metadata`: what the capturing device says it is, as lensd read it from the
/// driver (V4L2 VIDIOC_QUERYCAP: driver, card, bus_info) and, for a USB camera, from sysfs (vendor
/// id, product id, serial) — an entity-specific metadata assertion
/// (JSON-LD, its own namespace), since `c2pa.metadata` admits only the spec's listed fields.
/// Facts, not a vouching: a virtual device says here which driver it was.
public struct CameraIdentityAssertion: Assertion {
    public static let namespace = "https://lensd.org/ns/camera/1.0/"

    public var driver: String
    public var card: String
    public var busInfo: String
    /// Whether lensd treated the device as a physical sensor (the capture's digitalSourceType follows it).
    public var isPhysicalSensor: Bool
    /// A USB camera's vendor and product id (four hex digits each) and serial; nil for any other
    /// device, whose assertion then leaves these keys out.
    public var usb: (vendorID: String, productID: String, serial: String?)?
    public var label: String { Labels.cameraMetadata }

    public init(driver: String, card: String, busInfo: String, isPhysicalSensor: Bool) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.isPhysicalSensor = isPhysicalSensor
    }

    public func content() throws -> AssertionContent {
        var fields: [String: JSONValue] = [
            "@context": .object(["lensd": .string(Self.namespace)]),
            "lensd:driver": .string(driver),
            "lensd:card": .string(card),
            "lensd:busInfo": .string(busInfo),
            "lensd:physicalSensor": .bool(isPhysicalSensor),
        ]
        if let usb {
            fields["lensd:usbVendorId"] = .string(usb.vendorID)
            fields["lensd:usbProductId"] = .string(usb.productID)
            if let serial = usb.serial { fields["lensd:usbSerial"] = .string(serial) }
        }
        return .json(try JSONValue.object(fields).serialized())
    }
}
