import CV4L2
@testable import LensCamera
@testable import LensCore
import XCTest

/// The media-controller route to a flash on a real kernel: vivid registers one media device per
/// instance, with no flash in it. Runs only inside the VM (VividVMTests boots it), where vivid's
/// two cameras are /dev/video0 and /dev/video2.
final class V4L2MediaGraphVividTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["VIVID_VM"] == "1", "needs vivid: runs inside the VM (VividVMTests)")
    }

    func testVividsGraphsAreReadAndHoldNoFlash() throws {
        let graphs = try MediaDevice.paths().map { try MediaDevice.topology(at: $0) }
        var cameraGraphs: [Int] = []
        for node in ["video0", "video2"] {
            let number = try XCTUnwrap(DeviceNumber(sysfsText: String(contentsOfFile: "/sys/class/video4linux/\(node)/dev", encoding: .utf8)))
            let holding = graphs.indices.filter { graphs[$0].hasVideoInterface(number) }
            XCTAssertEqual(holding.count, 1, "\(node) (\(number)) is in one graph of \(graphs.count)")
            guard let index = holding.first else { continue }
            cameraGraphs.append(index)
            // The arrays' layout as the kernel wrote them: the node's interface is linked to a
            // V4L2 I/O entity.
            let graph = graphs[index]
            let interfaces = Set(graph.interfaces.filter { $0.device == number }.map(\.id))
            XCTAssertTrue(graph.interfaceLinks.contains {
                interfaces.contains($0.interface) && graph.entityFunctions[$0.entity] == UInt32(MEDIA_ENT_F_IO_V4L)
            }, "\(graph)")
        }
        XCTAssertEqual(Set(cameraGraphs).count, 2, "each vivid instance has its own graph")
        XCTAssertTrue(graphs.allSatisfy(\.flashSubdevices.isEmpty))
        for node in ["/dev/video0", "/dev/video2"] {
            XCTAssertEqual(V4L2Flash.mediaGraphSubdevicePaths(forVideoNode: node, graphs: V4L2Flash.mediaGraphs), [], node)
            XCTAssertNil(V4L2Flash.find(forVideoNode: node), node)
        }
    }
}
