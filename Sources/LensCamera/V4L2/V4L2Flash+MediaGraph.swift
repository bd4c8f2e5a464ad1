import FoundationEssentials

/// The second way to a camera's flash: through the media controller. On ISP pipelines (embedded
/// boards) the video node belongs to the ISP's driver while the sensor and its LED flash are
/// subdevices of other drivers, tied to it only as entities of one media graph.
extension V4L2Flash {
    /// The flash subdevices of the first graph among `graphs` that holds `videoNode`'s video
    /// interface: the nodes of its MEDIA_ENT_F_FLASH entities, named by the device numbers
    /// sysfs gives /dev/v4l-subdevN.
    static func mediaGraphSubdevicePaths(forVideoNode videoNode: String, graphs: some Sequence<MediaTopology>,
                                         sysfs: String = "/sys/class/video4linux") -> [String] {
        guard let number = deviceNumber(of: nodeName(videoNode), sysfs: sysfs),
              let graph = graphs.first(where: { $0.hasVideoInterface(number) }) else { return [] }
        let flashes = graph.flashSubdevices
        guard !flashes.isEmpty else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? []
        let subdevices = names.filter { $0.hasPrefix("v4l-subdev") }.compactMap { name in
            deviceNumber(of: name, sysfs: sysfs).map { (name: name, number: $0) }
        }
        return flashes.compactMap { flash in subdevices.first { $0.number == flash }.map { "/dev/\($0.name)" } }
    }

    /// The graphs of every media node, read as they are needed.
    static var mediaGraphs: some Sequence<MediaTopology> {
        MediaDevice.paths().lazy.compactMap { try? MediaDevice.topology(at: $0) }
    }

    static func nodeName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    private static func deviceNumber(of node: String, sysfs: String) -> DeviceNumber? {
        guard !node.isEmpty, let text = try? String(contentsOfFile: "\(sysfs)/\(node)/dev", encoding: .utf8) else { return nil }
        return DeviceNumber(sysfsText: text)
    }
}
