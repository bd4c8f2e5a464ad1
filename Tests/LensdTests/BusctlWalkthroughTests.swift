import Foundation
import LensTestSupport
import XCTest

/// clients/busctl/walkthrough.sh, run by a member of group lens: busctl alone opens a
/// persistent session, captures, reads the result as `ay` and turns it into a trusted photo.
final class BusctlWalkthroughTests: LensdTestCase {
    func testTheWalkthroughWritesATrustedPhoto() throws {
        let script = TestTools.repoRoot.appendingPathComponent("clients/busctl/walkthrough.sh").path
        let photo = outbox.appendingPathComponent("busctl.jpg")
        let r = try runProcess(TestUsers.asUser(TestUsers.member, ["/bin/bash", script, "--address", bus.address, "-o", photo.path]),
                               env: ["LENSCTL": try LensctlRunner.binary])
        let output = String(decoding: r.stdout, as: UTF8.self) + String(decoding: r.stderr, as: UTF8.self)
        XCTAssertEqual(r.status, 0, output)
        XCTAssertTrue(output.contains("busctl.jpg: Trusted"), output)
        try ReferenceValidator.assertTrusted(photo, anchors: [try client().trustAnchorFile(in: tmp)])
        XCTAssertEqual(try storedPhotos().map { try Data(contentsOf: $0) }, [try Data(contentsOf: photo)])
        // The persistent session was closed: the camera is free again.
        try lensctl.expect(0, ["set", "flash", "on"], as: TestUsers.secondMember)
    }
}
