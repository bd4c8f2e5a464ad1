import CV4L2
import FoundationEssentials
import Glibc
import LensSystem

/// Media controller nodes (/dev/mediaN): the graphs that tie an ISP's video node to the sensor
/// and LED-flash subdevices other drivers register.
enum MediaDevice {
    /// More elements than any real graph has: the counts come from the kernel, and a graph
    /// that grows without bound between the two calls must not make lensd allocate without bound.
    static let maximumElements = 4096

    /// The media nodes in `dev`, by number.
    static func paths(dev: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dev)) ?? []
        return names.filter { $0.hasPrefix("media") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { "\(dev)/\($0)" }
    }

    /// The graph at `path`, read in two passes: the counts, then the arrays. A graph that
    /// changes in between (ENOSPC: it grew) is read again.
    static func topology(at path: String) throws -> MediaTopology {
        try topology(of: FileDescriptor.open(path, O_RDONLY | O_NONBLOCK), path: path)
    }

    private static func topology(of device: borrowing FileDescriptor, path: String) throws -> MediaTopology {
        var counts = media_v2_topology()
        try getTopology(device, &counts)
        for _ in 0..<3 {
            guard [counts.num_entities, counts.num_interfaces, counts.num_links].allSatisfy({ $0 <= maximumElements }) else {
                throw SystemError("MEDIA_IOC_G_TOPOLOGY: more than \(maximumElements) elements", errno: Errno(rawValue: E2BIG))
            }
            var entities = [media_v2_entity](repeating: media_v2_entity(), count: Int(counts.num_entities))
            var interfaces = [media_v2_interface](repeating: media_v2_interface(), count: Int(counts.num_interfaces))
            var links = [media_v2_link](repeating: media_v2_link(), count: Int(counts.num_links))
            var topology = counts
            topology.num_pads = 0  // pads are not needed: with no array the kernel only counts them
            do {
                try entities.withUnsafeMutableBufferPointer { entityBuffer in
                    try interfaces.withUnsafeMutableBufferPointer { interfaceBuffer in
                        try links.withUnsafeMutableBufferPointer { linkBuffer in
                            topology.ptr_entities = address(entityBuffer)
                            topology.ptr_interfaces = address(interfaceBuffer)
                            topology.ptr_links = address(linkBuffer)
                            topology.ptr_pads = 0
                            try getTopology(device, &topology)
                        }
                    }
                }
            } catch let error as SystemError where error.errno == .noSpace {
                counts = topology  // the kernel wrote the new counts
                continue
            }
            // The counts returned are the graph's now, never more than the arrays held.
            return MediaTopology(entities: Array(entities.prefix(Int(topology.num_entities))),
                                 interfaces: Array(interfaces.prefix(Int(topology.num_interfaces))),
                                 links: Array(links.prefix(Int(topology.num_links))))
        }
        throw SystemError("MEDIA_IOC_G_TOPOLOGY on \(path): the graph kept changing", errno: .wouldBlock)
    }

    /// A media controller node: libv4l2 does not handle these, so a plain ioctl.
    private static func getTopology(_ device: borrowing FileDescriptor, _ topology: inout media_v2_topology) throws {
        do {
            try device.control(CV4L2_MEDIA_IOC_G_TOPOLOGY, &topology)
        } catch {
            throw SystemError("MEDIA_IOC_G_TOPOLOGY", errno: error.errno)
        }
    }

    private static func address<T>(_ buffer: UnsafeMutableBufferPointer<T>) -> UInt64 {
        UInt64(UInt(bitPattern: buffer.baseAddress))
    }
}
