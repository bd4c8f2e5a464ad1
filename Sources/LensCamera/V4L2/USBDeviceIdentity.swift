import FoundationEssentials
import LensSystem

/// A USB camera's vendor id, product id and serial, as the kernel lists them in sysfs for the
/// USB device a V4L2 node belongs to (`/sys/class/video4linux/videoN/device` is its interface;
/// the device, with `idVendor`, `idProduct` and `serial`, is an ancestor). Recorded in the
/// manifest's camera identity; a vivid, v4l2loopback or other non-USB node has none.
public struct USBDeviceIdentity: Sendable, Codable, Equatable {
    /// Four lowercase hex digits, e.g. "046d".
    public var vendorID: String
    public var productID: String
    /// The device's serial string; nil when it reports none.
    public var serial: String?

    public init(vendorID: String, productID: String, serial: String? = nil) {
        self.vendorID = vendorID
        self.productID = productID
        self.serial = serial
    }

    /// How far above the node's `device` the USB device may be (interface, then device).
    private static let maximumLevels = 4
    /// USB string descriptors hold at most 126 UTF-16 units.
    private static let maximumSerialLength = 126

    /// The identity of `/dev/videoN`'s USB device under `sysfs` (default /sys/class/video4linux);
    /// nil when the node is not on USB, or sysfs says something that is not an id.
    public static func of(node: String, sysfs: String = "/sys/class/video4linux") -> USBDeviceIdentity? {
        let name = node.split(separator: "/").last.map(String.init) ?? node
        var directory = URL(fileURLWithPath: sysfs).appendingPathComponent(name).appendingPathComponent("device").resolvingSymlinksInPath()
        for _ in 0..<maximumLevels {
            if let vendor = attribute("idVendor", in: directory) {
                guard let vendorID = hexID(vendor), let productID = attribute("idProduct", in: directory).flatMap(hexID) else { return nil }
                return USBDeviceIdentity(vendorID: vendorID, productID: productID,
                                         serial: attribute("serial", in: directory).flatMap(printableSerial))
            }
            // Past the devices tree is no longer the node's own hardware.
            guard directory.lastPathComponent != "devices", directory.path != "/" else { return nil }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// A sysfs attribute's text without its newline; nil when it is not there.
    private static func attribute(_ name: String, in directory: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path),
              data.count <= 4096, let text = String(data: data, encoding: .utf8) else { return nil }
        return text.trimmed { $0 == "\n" }
    }

    private static func hexID(_ text: String) -> String? {
        text.count == 4 && text.allSatisfy(\.isHexDigit) ? text.lowercased() : nil
    }

    /// Printable ASCII only: a serial is written into a signed manifest as it is.
    private static func printableSerial(_ text: String) -> String? {
        let trimmed = text.trimmed()
        guard !trimmed.isEmpty, trimmed.count <= maximumSerialLength,
              trimmed.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else { return nil }
        return trimmed
    }
}
