import Foundation
import LensCamera
import LensCore
import LensTestSupport
import XCTest

/// The USB identity read from a sysfs tree laid out as the kernel lays it out (a class link to
/// the node's `device`, the USB interface, whose parent is the USB device), built in a temporary
/// directory: a UVC webcam, one without a serial, vivid on the platform bus, and values that are
/// not ids.
final class USBDeviceIdentityTests: XCTestCase {
    private var root: TemporaryDirectory!
    private var sysfs: String { root.file("class/video4linux").path }

    override func setUpWithError() throws {
        root = try temporaryDirectory(prefix: "lensd-usb-sysfs")
    }

    /// `class/video4linux/<node>/device` linked to `devices/<device>`; `attributes` written in `devices/<holder>`.
    private func node(_ node: String, device: String, attributes: [String: String] = [:], in holder: String? = nil) throws {
        let fm = FileManager.default
        let deviceDirectory = root.file("devices/\(device)")
        try fm.createDirectory(at: deviceDirectory, withIntermediateDirectories: true)
        for (name, value) in attributes {
            try value.write(to: root.file("devices/\(holder ?? device)/\(name)"), atomically: true, encoding: .utf8)
        }
        let classDirectory = root.file("class/video4linux/\(node)")
        try fm.createDirectory(at: classDirectory, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: classDirectory.appendingPathComponent("device").path,
                                  withDestinationPath: "../../../devices/\(device)")
    }

    func testAUVCCamerasIdsAndSerialComeFromItsUSBDevice() throws {
        try node("video0", device: "pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0",
                 attributes: ["idVendor": "046D\n", "idProduct": "0825\n", "serial": "9A1B2C3D\n", "product": "C270 HD WEBCAM\n"],
                 in: "pci0000:00/0000:00:14.0/usb1/1-1")
        // The root hub above has ids too: the nearest device is the camera.
        try "1d6b\n".write(to: root.file("devices/pci0000:00/0000:00:14.0/usb1/idVendor"), atomically: true, encoding: .utf8)
        XCTAssertEqual(USBDeviceIdentity.of(node: "/dev/video0", sysfs: sysfs),
                       USBDeviceIdentity(vendorID: "046d", productID: "0825", serial: "9A1B2C3D"))
    }

    func testASerialIsOptionalAndOnlyPrintableASCIIIsKept() throws {
        try node("video2", device: "usb2/2-3/2-3:1.0", attributes: ["idVendor": "0c45\n", "idProduct": "6366\n"], in: "usb2/2-3")
        XCTAssertEqual(USBDeviceIdentity.of(node: "/dev/video2", sysfs: sysfs), USBDeviceIdentity(vendorID: "0c45", productID: "6366"))
        try "bad\u{1}serial\n".write(to: root.file("devices/usb2/2-3/serial"), atomically: true, encoding: .utf8)
        XCTAssertEqual(USBDeviceIdentity.of(node: "/dev/video2", sysfs: sysfs)?.serial, nil)
        try String(repeating: "7", count: 127).write(to: root.file("devices/usb2/2-3/serial"), atomically: true, encoding: .utf8)
        XCTAssertEqual(USBDeviceIdentity.of(node: "/dev/video2", sysfs: sysfs)?.serial, nil, "longer than a USB string descriptor")
    }

    func testVividAndAMissingNodeHaveNone() throws {
        try node("video4", device: "platform/vivid.0")
        XCTAssertNil(USBDeviceIdentity.of(node: "/dev/video4", sysfs: sysfs))
        XCTAssertNil(USBDeviceIdentity.of(node: "/dev/video9", sysfs: sysfs))
    }

    func testValuesThatAreNotIdsGiveNoIdentity() throws {
        try node("video6", device: "usb3/3-1/3-1:1.0", attributes: ["idVendor": "46d\n", "idProduct": "0825\n"], in: "usb3/3-1")
        XCTAssertNil(USBDeviceIdentity.of(node: "/dev/video6", sysfs: sysfs))
        try "046d\n".write(to: root.file("devices/usb3/3-1/idVendor"), atomically: true, encoding: .utf8)
        try "08zz\n".write(to: root.file("devices/usb3/3-1/idProduct"), atomically: true, encoding: .utf8)
        XCTAssertNil(USBDeviceIdentity.of(node: "/dev/video6", sysfs: sysfs))
    }
}
