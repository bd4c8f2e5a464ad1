import Foundation
import LensTestSupport
import XCTest

/// The client tests hand the users they run as copies of what those users read, so they pass in
/// a clone only root can enter (on Debian /root is 0700). Here the clients are copied into such a
/// place — a 0700 directory, the files 0600 as a clone made under umask 077 has them — and a member
/// of group lens runs the busctl walkthrough and the Python recorder from there, through the same
/// helpers as BusctlWalkthroughTests and PythonClientTests.
final class ClosedCheckoutTests: LensdTestCase {
    func testTheClientsRunAsAMemberFromACheckoutClosedToOthers() throws {
        let clients = try closedClients()
        let script = clients.appendingPathComponent("busctl/walkthrough.sh").path
        XCTAssertNotEqual(try runProcess(TestUsers.asUser(TestUsers.member, ["/usr/bin/test", "-r", script])).status, 0,
                          "the member can read \(script): the copy is not closed")

        let photo = outbox.appendingPathComponent("busctl.jpg")
        let walkthrough = try runWalkthrough(from: clients, writing: photo)
        XCTAssertEqual(walkthrough.status, 0, walkthrough.output)
        XCTAssertTrue(walkthrough.output.contains("busctl.jpg: Trusted"), walkthrough.output)

        let clip = outbox.appendingPathComponent("clip.mp4")
        let recorder = try runPythonRecorder(from: clients, ["--duration", "1", "-o", clip.path], as: TestUsers.member)
        XCTAssertEqual(recorder.status, 0, recorder.stdout + recorder.stderr)
        XCTAssertTrue(recorder.stdout.hasSuffix(" \(clip.path)  signed\n"), recorder.stdout)
    }

    /// <tmp>/closed (0700)/clients with clients/busctl and clients/python, every file 0600.
    private func closedClients() throws -> URL {
        let closed = tmp.file("closed")
        try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let clients = closed.appendingPathComponent("clients")
        try FileManager.default.createDirectory(at: clients, withIntermediateDirectories: false)
        for name in ["busctl", "python"] {
            try FileManager.default.copyItem(at: TestTools.repoRoot.appendingPathComponent("clients/\(name)"),
                                             to: clients.appendingPathComponent(name))
        }
        let r = try runProcess(["chmod", "-R", "go-rwx,u-x+X", clients.path])
        guard r.status == 0 else { throw TestToolError("chmod: \(String(decoding: r.stderr, as: UTF8.self))") }
        return clients
    }
}
