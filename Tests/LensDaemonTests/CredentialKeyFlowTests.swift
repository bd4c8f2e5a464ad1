import Foundation
import LensTestSupport
import XCTest

/// The software device key at rest, in process: encrypted with systemd-creds, the plain file
/// deleted, and handed to lensd decrypted in $CREDENTIALS_DIRECTORY as the unit's
/// LoadCredentialEncrypted= does. No systemd manager runs here, so `systemd-creds decrypt` (the
/// same code and host key the manager uses) fills that directory, 0400 in a 0700 directory of
/// the daemon's user, and the test sets the variable in its own process, where lensd reads it.
final class CredentialKeyFlowTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private let environment = ProcessEnvironment()
    private var lensd: DaemonHarness!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory(prefix: "lensd-credential-flow")
        environment.set(["CREDENTIALS_DIRECTORY": nil])
    }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        defer { environment.restore() }
        try lensd?.shutDown()
        lensd = nil
    }

    /// (Re)starts lensd on the test's state directory, with `credentials` as $CREDENTIALS_DIRECTORY.
    private func startDaemon(credentials: URL? = nil) throws {
        try lensd?.shutDown()
        if let credentials { environment.set(["CREDENTIALS_DIRECTORY": credentials.path]) }
        lensd = try DaemonHarness(["--state-dir", tmp.file("state").path])
    }

    private func enrollmentState() throws -> String? { try lensd.client().managerProperty("EnrollmentState").stringValue }

    func testTheDeviceKeyComesFromAnEncryptedCredential() throws {
        try startDaemon()
        let plainKey = tmp.file("state/identity/device.key")
        XCTAssertTrue(FileManager.default.fileExists(atPath: plainKey.path), "the first start made the identity")
        let sealed = tmp.file("device-key.cred")
        try run(["systemd-creds", "encrypt", "--name=device-key", "--with-key=host", plainKey.path, sealed.path])
        XCTAssertFalse(try Data(contentsOf: sealed).contains(Data(try Data(contentsOf: plainKey).prefix(64))),
                       "the credential holds the key encrypted")
        try FileManager.default.removeItem(at: plainKey)

        // Without the credential the key is gone: capture is disabled, saying so.
        try startDaemon()
        XCTAssertEqual(try enrollmentState(), "missing")

        let directory = tmp.file("credentials")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try run(["systemd-creds", "decrypt", "--name=device-key", sealed.path, directory.appendingPathComponent("device-key").path])
        try run(["chmod", "0400", directory.appendingPathComponent("device-key").path])
        try run(["chmod", "0700", directory.path])
        try startDaemon(credentials: directory)

        let c = lensd.client()
        XCTAssertEqual(try enrollmentState(), "enrolled")
        let session = try c.claimedSession()
        let photo = try XCTUnwrap(lensd.stateFiles.photo(named: try c.photo(in: session).name))
        try ReferenceValidator.assertTrusted(photo, anchors: [try c.trustAnchorFile(in: tmp)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: plainKey.path), "no key was written back to the disk")
    }

    /// A credential others could read is refused, as the plain key file would be, saying so (in
    /// what sessions are told, and what lensd logs at start-up).
    func testACredentialOthersCanReadIsRefused() throws {
        try startDaemon()
        let directory = tmp.file("credentials")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let key = directory.appendingPathComponent("device-key")
        try FileManager.default.copyItem(at: tmp.file("state/identity/device.key"), to: key)
        try run(["chmod", "0644", key.path])
        try startDaemon(credentials: directory)
        XCTAssertEqual(try enrollmentState(), "invalid")
        let c = lensd.client()
        let details = "\(try c.get(try c.openSession(), "DisabledReasonDetails"))"
        XCTAssertTrue(details.contains("the device-key credential \(key.path) is accessible to other users"), details)
    }

    private func run(_ argv: [String]) throws {
        let result = try runProcess(argv)
        guard result.status == 0 else {
            throw TestToolError("\(argv.joined(separator: " ")) exited \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        }
    }
}
