import CV4L2
@testable import LensCamera
@testable import LensCore
import XCTest

/// Finding a camera's flash through the media controller, on graphs built as MEDIA_IOC_G_TOPOLOGY
/// returns them (an ISP's video node, a sensor and an LED flash from other drivers) and a sysfs
/// tree of their nodes. The ioctl itself runs on vivid's real media devices (V4L2MediaGraphVividTests).
final class V4L2MediaGraphTests: XCTestCase {
    private var sysfs = ""

    override func setUpWithError() throws {
        sysfs = FileManager.default.temporaryDirectory.appendingPathComponent("v4l2media-\(UUID().uuidString)").path
        for (node, number) in [("video0", "81:0"), ("v4l-subdev0", "81:1"), ("v4l-subdev1", "81:2"), ("video2", "81:7"), ("v4l-subdev5", "81:9")] {
            try FileManager.default.createDirectory(atPath: "\(sysfs)/\(node)", withIntermediateDirectories: true)
            try "\(number)\n".write(toFile: "\(sysfs)/\(node)/dev", atomically: true, encoding: .utf8)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: sysfs)
    }

    func testTheFlashOfTheVideoNodesGraphIsFound() {
        let graphs = [otherCameraWithFlash, isp(flash: true)]
        XCTAssertEqual(paths("/dev/video0", graphs), ["/dev/v4l-subdev1"])
        XCTAssertEqual(paths("/dev/video2", graphs), ["/dev/v4l-subdev5"])
    }

    func testAGraphWithoutAFlashOrAFlashInAnotherGraphGivesNone() {
        XCTAssertEqual(paths("/dev/video0", [isp(flash: false)]), [])
        XCTAssertEqual(paths("/dev/video0", [isp(flash: false), otherCameraWithFlash]), [])
        XCTAssertEqual(paths("/dev/video0", [otherCameraWithFlash]), [])
        XCTAssertEqual(paths("/dev/video0", []), [])
        XCTAssertEqual(paths("/dev/video9", [isp(flash: true)]), [], "a node sysfs does not know")
    }

    /// What the arrays say is only believed where it fits: a data link is no interface link, a
    /// flash needs a sub-device interface linked to it, and ids that name nothing are skipped.
    func testLinksAndInterfacesThatDoNotFitAreIgnored() {
        var graph = isp(flash: false)
        graph.entities.append(entity(3, MEDIA_ENT_F_FLASH))
        // A data link from the sensor's interface id, and the video interface linked to the flash.
        graph.links += [link(11, 3, UInt32(MEDIA_LNK_FL_ENABLED)), link(10, 3, UInt32(MEDIA_LNK_FL_INTERFACE_LINK))]
        // Interface links from and to ids the graph lacks, and a flash node sysfs does not know.
        graph.links += [link(99, 3, UInt32(MEDIA_LNK_FL_INTERFACE_LINK)), link(11, 98, UInt32(MEDIA_LNK_FL_INTERFACE_LINK))]
        graph.interfaces.append(interface(12, MEDIA_INTF_T_V4L_SUBDEV, 81, 44))
        graph.links.append(link(12, 3, UInt32(MEDIA_LNK_FL_INTERFACE_LINK)))
        XCTAssertEqual(paths("/dev/video0", [graph]), [])

        // The same flash with a node sysfs knows, linked twice, is found once.
        graph.interfaces.append(interface(13, MEDIA_INTF_T_V4L_SUBDEV, 81, 2))
        graph.links += [link(13, 3, UInt32(MEDIA_LNK_FL_INTERFACE_LINK)), link(13, 3, UInt32(MEDIA_LNK_FL_INTERFACE_LINK))]
        XCTAssertEqual(paths("/dev/video0", [graph]), ["/dev/v4l-subdev1"])
    }

    func testDeviceNumbersAreReadAsSysfsWritesThem() {
        XCTAssertEqual(DeviceNumber(sysfsText: "81:3\n"), DeviceNumber(major: 81, minor: 3))
        for text in ["", "81", "81:", ":3", "a:b", "81:3:4", "-1:3", "81:99999999999"] {
            XCTAssertNil(DeviceNumber(sysfsText: text), text)
        }
    }

    /// The kernel's arrays for one graph.
    private struct Graph {
        var entities: [media_v2_entity]
        var interfaces: [media_v2_interface]
        var links: [media_v2_link]
        var topology: MediaTopology { MediaTopology(entities: entities, interfaces: interfaces, links: links) }
    }

    /// An ISP's capture node (/dev/video0, 81:0) fed by a sensor (/dev/v4l-subdev0), and with
    /// `flash` the sensor's LED flash (/dev/v4l-subdev1, 81:2). Ids are unique in a graph.
    private func isp(flash: Bool) -> Graph {
        var graph = Graph(
            entities: [entity(1, MEDIA_ENT_F_IO_V4L), entity(2, MEDIA_ENT_F_CAM_SENSOR)],
            interfaces: [interface(10, MEDIA_INTF_T_V4L_VIDEO, 81, 0), interface(11, MEDIA_INTF_T_V4L_SUBDEV, 81, 1)],
            // Pads 20 (sensor source) and 21 (ISP sink) carry the data link.
            links: [link(20, 21, UInt32(MEDIA_LNK_FL_ENABLED)), link(10, 1, UInt32(MEDIA_LNK_FL_INTERFACE_LINK)),
                    link(11, 2, UInt32(MEDIA_LNK_FL_INTERFACE_LINK))])
        if flash {
            graph.entities.append(entity(3, MEDIA_ENT_F_FLASH))
            graph.interfaces.append(interface(12, MEDIA_INTF_T_V4L_SUBDEV, 81, 2))
            graph.links.append(link(12, 3, UInt32(MEDIA_LNK_FL_INTERFACE_LINK)))
        }
        return graph
    }

    /// Another camera's graph: /dev/video2 (81:7) with a flash at /dev/v4l-subdev5 (81:9).
    private var otherCameraWithFlash: Graph {
        Graph(entities: [entity(1, MEDIA_ENT_F_IO_V4L), entity(3, MEDIA_ENT_F_FLASH)],
              interfaces: [interface(10, MEDIA_INTF_T_V4L_VIDEO, 81, 7), interface(12, MEDIA_INTF_T_V4L_SUBDEV, 81, 9)],
              links: [link(10, 1, UInt32(MEDIA_LNK_FL_INTERFACE_LINK)), link(12, 3, UInt32(MEDIA_LNK_FL_INTERFACE_LINK))])
    }

    private func paths(_ videoNode: String, _ graphs: [Graph]) -> [String] {
        V4L2Flash.mediaGraphSubdevicePaths(forVideoNode: videoNode, graphs: graphs.map(\.topology), sysfs: sysfs)
    }

    private func entity(_ id: UInt32, _ function: Int32) -> media_v2_entity {
        var entity = media_v2_entity()
        entity.id = id
        entity.function = UInt32(function)
        return entity
    }

    private func interface(_ id: UInt32, _ type: Int32, _ major: UInt32, _ minor: UInt32) -> media_v2_interface {
        var interface = media_v2_interface()
        interface.id = id
        interface.intf_type = UInt32(type)
        interface.devnode = media_v2_intf_devnode(major: major, minor: minor)
        return interface
    }

    private func link(_ source: UInt32, _ sink: UInt32, _ flags: UInt32) -> media_v2_link {
        var link = media_v2_link()
        link.source_id = source
        link.sink_id = sink
        link.flags = flags
        return link
    }
}
