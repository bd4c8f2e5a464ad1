import Foundation
import LensTestSupport
import XCTest

/// The README's pipeline, as a member of group lens runs it in a shell.
final class LensctlPipelineTests: LensdTestCase {
    func testCaptureThenVerifyAgainstTheDaemonsOwnAnchor() throws {
        let binaries = URL(fileURLWithPath: try LensctlRunner.binary).deletingLastPathComponent().path
        let script = """
            cd \(outbox.path) && lensctl capture -o x.jpg --bus \(bus.address) \
            && lensctl verify --require-trusted --trust-anchor <(lensctl trust-anchor --bus \(bus.address)) x.jpg
            """
        let r = try runProcess(TestUsers.asUser(TestUsers.member, ["/bin/bash", "-c", script]),
                               env: ["PATH": "\(binaries):/usr/bin:/bin"])
        let output = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, 0, output + String(decoding: r.stderr, as: UTF8.self))
        XCTAssertTrue(output.contains("verdict:  Trusted"), output)
        XCTAssertTrue(output.contains("x.jpg: Trusted"), output)

        // The reference implementation agrees, and the bytes are lensd's, untouched.
        let photo = outbox.appendingPathComponent("x.jpg")
        let anchor = tmp.file("anchor.pem")
        try lensctl.expect(0, ["trust-anchor"]).stdout.write(to: anchor, atomically: true, encoding: .utf8)
        try ReferenceValidator.assertTrusted(photo, anchors: [anchor])
        XCTAssertEqual(try storedPhotos().map { try Data(contentsOf: $0) }, [try Data(contentsOf: photo)])
        let attributes = try FileManager.default.attributesOfItem(atPath: photo.path)
        XCTAssertEqual(attributes[.ownerAccountID] as? UInt32, try TestUsers.uid(TestUsers.member))
    }
}
