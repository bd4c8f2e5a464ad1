import CV4L2
import FoundationEssentials
import LensSystem

/// A character device's number, as sysfs writes it in a node's `dev` file ("81:3").
struct DeviceNumber: Hashable, CustomStringConvertible {
    var major: UInt32
    var minor: UInt32

    init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }

    init?(sysfsText text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let major = UInt32(parts[0]), let minor = UInt32(parts[1].trimmed()) else {
            return nil
        }
        self.init(major: major, minor: minor)
    }

    var description: String { "\(major):\(minor)" }
}

/// A media controller graph (MEDIA_IOC_G_TOPOLOGY), reduced to what finding a camera's flash
/// needs: entities with their functions, device-node interfaces, and interface links. Built
/// from the kernel's arrays as they are: a link may name ids the graph lacks, and a flash
/// entity may have no node; such parts are ignored, never trusted.
struct MediaTopology {
    struct Interface {
        var id: UInt32
        var type: UInt32
        var device: DeviceNumber
    }

    /// Entity id → MEDIA_ENT_F_* function.
    private(set) var entityFunctions: [UInt32: UInt32] = [:]
    private(set) var interfaces: [Interface] = []
    /// Interface links only, as (interface id, entity id): data links join pads, not these.
    private(set) var interfaceLinks: [(interface: UInt32, entity: UInt32)] = []

    /// (0xf << 28): negative as the C int Swift imports it as.
    private static let linkTypeMask = UInt32(bitPattern: MEDIA_LNK_FL_LINK_TYPE)

    init(entities: [media_v2_entity], interfaces: [media_v2_interface], links: [media_v2_link]) {
        for entity in entities { entityFunctions[entity.id] = entity.function }
        self.interfaces = interfaces.map {
            Interface(id: $0.id, type: $0.intf_type, device: DeviceNumber(major: $0.devnode.major, minor: $0.devnode.minor))
        }
        interfaceLinks = links.filter { $0.flags & Self.linkTypeMask == UInt32(MEDIA_LNK_FL_INTERFACE_LINK) }
            .map { (interface: $0.source_id, entity: $0.sink_id) }
    }

    /// The graph has a V4L2 video node interface for `device`: it is that camera's graph.
    func hasVideoInterface(_ device: DeviceNumber) -> Bool {
        interfaces.contains { $0.type == UInt32(MEDIA_INTF_T_V4L_VIDEO) && $0.device == device }
    }

    /// The sub-device nodes of the graph's flash entities (MEDIA_ENT_F_FLASH), in link order,
    /// each once.
    var flashSubdevices: [DeviceNumber] {
        let flashes = Set(entityFunctions.filter { $0.value == UInt32(MEDIA_ENT_F_FLASH) }.keys)
        let subdevices = Dictionary(interfaces.filter { $0.type == UInt32(MEDIA_INTF_T_V4L_SUBDEV) }.map { ($0.id, $0.device) },
                                    uniquingKeysWith: { first, _ in first })
        var found: [DeviceNumber] = []
        for link in interfaceLinks where flashes.contains(link.entity) {
            if let device = subdevices[link.interface], !found.contains(device) { found.append(device) }
        }
        return found
    }
}
