import FoundationEssentials

/// Finds cameras: /sys/class/video4linux nodes whose own capabilities include VIDEO_CAPTURE and
/// streaming (metadata and output nodes left out), one per bus_info (a UVC camera registers
/// several nodes), ordered by node number. Node numbers are never assumed.
public enum V4L2Discovery {
    /// Drivers that make frames up, or pass on frames any process writes, rather than sense them.
    public static let virtualDrivers: Set<String> = ["vivid", "v4l2 loopback", "vimc", "akvcam"]
    /// The buses a sensor hangs on (bus_info prefixes the kernel's drivers use).
    static let sensorBuses = ["usb-", "PCI:", "PCIe:", "pci-", "platform:"]

    /// Whether lensd cannot tell the device is a physical sensor: a virtual driver, or a device on
    /// no bus a sensor hangs on. Such a device's captures make no capture claim (algorithmicMedia).
    public static func isVirtual(driver: String, busInfo: String) -> Bool {
        virtualDrivers.contains(driver) || !sensorBuses.contains { busInfo.hasPrefix($0) }
    }

    /// The device nodes sysfs lists now, e.g. ["/dev/video0", "/dev/video2"], by node number.
    public static func nodePaths(sysfs: String = "/sys/class/video4linux") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? []
        return names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { "/dev/\($0)" }
    }

    /// Capture devices, one per bus_info, with positions assigned (V4L2Positions). Nodes that
    /// cannot be opened are skipped with `skipped` told why (permission problems must show).
    public static func cameras(sysfs: String = "/sys/class/video4linux", configuredPositions: [String: CameraPosition] = [:],
                               skipped: (String, String) -> Void = { _, _ in }) -> [CameraDescription] {
        var found: [(description: CameraDescription, orientation: CameraPosition?)] = []
        for path in nodePaths(sysfs: sysfs) {
            do {
                let device = try V4L2Device(path: path)
                let capability = try device.capability()
                guard capability.capturesVideo, capability.streams,
                      !found.contains(where: { $0.description.busInfo == capability.busInfo }) else { continue }
                let description = CameraDescription(
                    path: path, name: capability.card, driver: capability.driver, busInfo: capability.busInfo,
                    position: .unspecified, isVirtual: isVirtual(driver: capability.driver, busInfo: capability.busInfo),
                    formats: device.nativeFormats().map(V4L2Device.fourccString), usb: USBDeviceIdentity.of(node: path, sysfs: sysfs))
                found.append((description, V4L2Controls.orientation(of: device)))
            } catch {
                skipped(path, "\(error)")
            }
        }
        let positions = V4L2Positions.assign(paths: found.map(\.description.path), reported: found.map(\.orientation),
                                             configured: configuredPositions)
        return zip(found, positions).map { entry, position in
            var description = entry.description
            description.position = position
            return description
        }
    }
}
