import Foundation
import LensBus
import LensTestSupport
import XCTest

/// The software device key at rest: encrypted with systemd-creds, the plain file deleted, and
/// handed to lensd decrypted in $CREDENTIALS_DIRECTORY as the unit's LoadCredentialEncrypted=
/// does. No systemd manager runs here, so `systemd-creds decrypt` (the same code and host key
/// the manager uses) fills that directory, as user lensd's, 0400, in a 0700 directory.
final class CredentialKeyTests: LensdTestCase {
    private var credentials: URL?
    override var daemonEnvironment: [String: String] {
        credentials.map { ["CREDENTIALS_DIRECTORY": $0.path] } ?? [:]
    }

    func testTheDeviceKeyComesFromAnEncryptedCredential() throws {
        let plainKey = tmp.file("state/identity/device.key")
        XCTAssertTrue(FileManager.default.fileExists(atPath: plainKey.path), "the first start made the identity")
        let sealed = tmp.file("device-key.cred")
        try run(["systemd-creds", "encrypt", "--name=device-key", "--with-key=host", plainKey.path, sealed.path])
        XCTAssertFalse(try Data(contentsOf: sealed).contains(Data(try Data(contentsOf: plainKey).prefix(64))),
                       "the credential holds the key encrypted")
        try FileManager.default.removeItem(at: plainKey)

        // Without the credential the key is gone: capture is disabled, saying so.
        try restartDaemon()
        XCTAssertEqual(try client().get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "missing")

        let directory = tmp.file("credentials")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try run(["systemd-creds", "decrypt", "--name=device-key", sealed.path, directory.appendingPathComponent("device-key").path])
        try run(["chmod", "0400", directory.appendingPathComponent("device-key").path])
        try run(["chmod", "0700", directory.path])
        try run(["chown", "-R", "lensd:lensd", directory.path])
        credentials = directory
        try restartDaemon()

        let c = try client()
        XCTAssertEqual(try c.get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "enrolled")
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let name = try XCTUnwrap(c.call(session, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: session, timeout: 30) { $0.arguments.first?.stringValue == name }
        let photo = try XCTUnwrap(storedPhotos().first)
        try ReferenceValidator.assertTrusted(photo, anchors: [try c.trustAnchorFile(in: tmp)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: plainKey.path), "no key was written back to the disk")
    }

    /// A credential others could read is refused, as the plain key file would be.
    func testACredentialOthersCanReadIsRefused() throws {
        let directory = tmp.file("credentials")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let key = directory.appendingPathComponent("device-key")
        try FileManager.default.copyItem(at: tmp.file("state/identity/device.key"), to: key)
        try run(["chown", "-R", "lensd:lensd", directory.path])
        try run(["chmod", "0644", key.path])
        credentials = directory
        try restartDaemon()
        XCTAssertEqual(try client().get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "invalid")
        XCTAssertTrue(daemon.log.contains("the device-key credential \(key.path) is accessible to other users"), daemon.log)
    }

    private func run(_ argv: [String]) throws {
        let result = try runProcess(argv)
        guard result.status == 0 else {
            throw TestToolError("\(argv.joined(separator: " ")) exited \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        }
    }
}
