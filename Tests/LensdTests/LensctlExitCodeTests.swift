import C2PA
import Foundation
import LensTestSupport
import XCTest

/// Every exit code lensctl(1) documents, produced for real (5: LensctlTimeoutTests
/// and LensctlLocationTests; 4 without the policy file: LensctlAuthorizationTests).
final class LensctlExitCodeTests: LensdTestCase {
    func testOkAndFailedForCapture() throws {
        let photo = outbox.appendingPathComponent("x.jpg").path
        try lensctl.expect(0, ["capture", "-o", photo], as: TestUsers.member)
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        // Never overwritten without --force: exit 1, one readable line, the file untouched.
        let refused = try lensctl.expect(1, ["capture", "-o", photo], as: TestUsers.member)
        XCTAssertEqual(refused.stderr, "lensctl: \(photo) exists; pass --force to overwrite it\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: photo)), before)
        try lensctl.expect(0, ["capture", "-o", photo, "--force"], as: TestUsers.member)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: photo)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outbox.path), ["x.jpg"])
    }

    func testFailedForVerifyWithoutTrust() throws {
        let photo = outbox.appendingPathComponent("x.jpg").path
        try lensctl.expect(0, ["capture", "-o", photo])
        // Valid but not Trusted: only --require-trusted turns that into a failure.
        try lensctl.expect(0, ["verify", photo])
        try lensctl.expect(1, ["verify", "--require-trusted", photo])
        try lensctl.expect(0, ["verify", "--require-trusted", photo], bus: bus.address)
    }

    func testUsageErrors() throws {
        for arguments in [["capture", "--zoom", "0.5"], ["capture", "--flash", "bright"], ["capture", "--frobnicate"],
                          ["capture", "--timeout"], ["set", "volume", "11"], ["set", "focus", "0.5"], ["nonsense"],
                          ["verify"], ["status", "extra"]] {
            let result = try lensctl.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try runProcess([try LensctlRunner.binary]).status, 2)
        let help = try lensctl.expect(0, ["capture", "--help"])
        XCTAssertTrue(help.stdout.hasPrefix("usage: lensctl capture"), help.stdout)
    }

    /// One line with the cause and what to do, not sd-bus's or dbus-daemon's wording.
    func testUnreachable() throws {
        let noBus = try lensctl.expect(3, ["status"], bus: "unix:path=\(tmp.file("no-such-bus").path)")
        XCTAssertEqual(noBus.stderr.split(separator: "\n").count, 1, noBus.stderr)
        XCTAssertTrue(noBus.stderr.contains("cannot reach lensd: unix:path=\(tmp.file("no-such-bus").path) is not available (No such file or directory)"),
                      noBus.stderr)
        XCTAssertFalse(noBus.stderr.contains("connecting to"), noBus.stderr)
        daemon.stop()
        let gone = try lensctl.expect(3, ["status"])
        XCTAssertEqual(gone.stderr.split(separator: "\n").count, 1, gone.stderr)
        XCTAssertTrue(gone.stderr.contains("lensd is not running (nobody owns org.lensd.Lens1 on the bus): see `systemctl status lensd`"),
                      gone.stderr)
        XCTAssertFalse(gone.stderr.contains(".service files"), gone.stderr)
    }

    /// The shipped policy refuses the outsider before lensd sees the call: one line naming the
    /// user and the command that fixes it, not the policy's rule dump.
    func testNotAuthorizedByThePolicy() throws {
        let refused = try lensctl.expect(4, ["status"], as: TestUsers.outsider)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\(TestUsers.outsider) may not use lensd"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("usermod -aG lens \(TestUsers.outsider)`, then log in again"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("matched rules"), refused.stderr)
        try lensctl.expect(0, ["status"], as: TestUsers.member)
    }

    func testNoManifestAndUnreadableInput() throws {
        let plain = try TestJPEG.make(at: tmp.file("plain.jpg"))
        try lensctl.expect(6, ["verify", plain.path])
        try lensctl.expect(7, ["verify", tmp.file("missing.jpg").path])
        try lensctl.expect(7, ["verify", "--trust-anchor", tmp.file("missing.pem").path, plain.path])
    }

    /// Videos go through the same verdicts: no manifest, not trusted, trusted (with --json).
    func testVerifiesMP4() throws {
        let plain = try TestMP4.make(at: tmp.file("plain.mp4"), .h264MoovLast)
        try lensctl.expect(6, ["verify", plain.path])
        let pki = try TestPKI.make(in: tmp.file("pki"))
        let signer = try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8),
                                        chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
        let writer = ManifestWriter(generator: ClaimGeneratorInfo(name: "lensctl-test", version: "0"),
                                    assertions: [ActionsAssertion(when: Date(), digitalSourceType: .digitalCapture)], signer: signer)
        let video = tmp.file("video.mp4")
        try MP4Signer(writer: writer).sign(inputPath: plain.path, outputPath: video.path)
        try lensctl.expect(1, ["verify", "--require-trusted", video.path])
        let trusted = try lensctl.expect(0, ["verify", "--require-trusted", "--trust-anchor", pki.root.path, video.path, "--json"])
        try JSONSchemaCheck.assertValid(trusted.stdout, schema: "verify")
        XCTAssertTrue(trusted.stdout.contains("\"validation_state\" : \"Trusted\""), trusted.stdout)
    }
}

/// Location required and no gpsd: capture waits for a fix that never comes, then exit 5.
final class LensctlTimeoutTests: LensdTestCase {
    override var daemonArguments: [String] { ["--camera", "synthetic", "--location", "required", "--gpsd", "none"] }

    func testCaptureTimesOutWaitingForLocation() throws {
        let started = Date()
        let result = try lensctl.expect(5, ["capture", "-o", outbox.appendingPathComponent("never.jpg").path, "--timeout", "1.5"],
                                        as: TestUsers.member)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1.5)
        XCTAssertTrue(result.stderr.hasPrefix("waiting for location: no location source (gpsd is set to none) (need ≤ 1500 m)\n"),
                      result.stderr)
        XCTAssertTrue(result.stderr.contains("lensctl: gave up after 1.5 s"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outbox.path), [])
    }
}

/// No policy file on an open bus: lensd's own check refuses the outsider, with exit 4.
final class LensctlAuthorizationTests: LensdTestCase {
    override func makeBus() throws -> PrivateSystemBus { try PrivateSystemBus(policyDirectory: nil, openDefault: true) }

    func testNotAuthorizedByLensdItself() throws {
        let refused = try lensctl.expect(4, ["status"], as: TestUsers.outsider)
        XCTAssertTrue(refused.stderr.contains("may not use lensd"), refused.stderr)
        let json = try lensctl.expect(4, ["capture", "--json", "-o", outbox.appendingPathComponent("x.jpg").path],
                                      as: TestUsers.outsider)
        try JSONSchemaCheck.assertValid(json.stdout, schema: "error")
    }
}
