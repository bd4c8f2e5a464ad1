import Foundation
import LensTestSupport
import XCTest

/// clients/busctl/walkthrough.sh, run by a member of group lens: busctl alone opens a
/// persistent session, captures, reads the result as `ay` and turns it into a trusted photo.
final class BusctlWalkthroughTests: LensdTestCase {
    func testTheWalkthroughWritesATrustedPhoto() throws {
        let photo = outbox.appendingPathComponent("busctl.jpg")
        let r = try runWalkthrough(from: TestTools.repoRoot.appendingPathComponent("clients"), writing: photo)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("busctl.jpg: Trusted"), r.output)
        try ReferenceValidator.assertTrusted(photo, anchors: [try client().trustAnchorFile(in: tmp)])
        XCTAssertEqual(try storedPhotos().map { try Data(contentsOf: $0) }, [try Data(contentsOf: photo)])
        // The persistent session was closed: the camera is free again.
        try lensctl.expect(0, ["set", "flash", "on"], as: TestUsers.secondMember)
    }
}

extension LensdTestCase {
    /// `clients`/busctl/walkthrough.sh run by a member of group lens, writing `photo`: from a copy
    /// the member can read, since the checkout may be closed to it. Its status and all it printed.
    func runWalkthrough(from clients: URL, writing photo: URL) throws -> (status: Int32, output: String) {
        let script = try ReadableCopy.make(of: [clients.appendingPathComponent("busctl/walkthrough.sh")],
                                           in: tmp.file("busctl-\(UUID().uuidString.prefix(8))"))[0]
        let r = try runProcess(TestUsers.asUser(TestUsers.member, ["/bin/bash", script.path, "--address", bus.address, "-o", photo.path]),
                               env: ["LENSCTL": try LensctlRunner.binary])
        return (r.status, String(decoding: r.stdout, as: UTF8.self) + String(decoding: r.stderr, as: UTF8.self))
    }
}
