import C2PA
import Foundation
import Glibc
import LensCrypto
@testable import LensIdentity
@testable import LensStorage
import XCTest

@testable import LensCore

/// The embedded device identity: first start, restarts, and every way it can be damaged.
final class DeviceIdentityTests: XCTestCase {
    private var scratch: URL!
    private let day: TimeInterval = 86_400

    private var stateDirectory: URL { scratch.appendingPathComponent("state") }
    private var identityDirectory: String { stateDirectory.appendingPathComponent("identity").path }
    private var keyPath: String { "\(identityDirectory)/device.key" }
    private var chainPath: String { "\(identityDirectory)/device.pem" }
    private var rootPath: String { "\(identityDirectory)/root.pem" }

    override func setUpWithError() throws {
        scratch = try StorageTestSupport.makeScratchDirectory("identity")
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    private func configuration(lifetimeDays: Int = 365) -> IdentityConfiguration {
        IdentityConfiguration(stateDirectory: stateDirectory, deviceName: "cam-1.example", organization: "Lensd Test", lifetimeDays: lifetimeDays)
    }

    private func enroll(now: Date = Date()) throws -> DeviceIdentity {
        let identity = DeviceIdentity.load(configuration(), now: now)
        XCTAssertEqual(identity.state, .enrolled, identity.problem ?? "")
        XCTAssertNil(identity.problem)
        return identity
    }

    func testFirstStartCreatesPrivateIdentityFiles() throws {
        let identity = try enroll()

        XCTAssertEqual(try StorageTestSupport.mode(identityDirectory), 0o700)
        XCTAssertEqual(try StorageTestSupport.mode(keyPath), 0o600)
        for path in [identityDirectory, keyPath, chainPath, rootPath] {
            XCTAssertEqual(try StorageTestSupport.status(path).st_uid, getuid(), path)
        }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: identityDirectory)), ["device.key", "device.pem", "root.pem"])
        // Nothing but the identity: no staging directory and, above all, no CA key anywhere.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path), ["identity"])

        let keyText = try String(contentsOfFile: keyPath, encoding: .utf8)
        XCTAssertTrue(keyText.hasPrefix("-----BEGIN PRIVATE KEY-----"), "PKCS#8")
        XCTAssertEqual(try Certificate.parsePEM(String(contentsOfFile: chainPath, encoding: .utf8)), [identity.certificate!])
        XCTAssertEqual(try Certificate.parsePEM(String(contentsOfFile: rootPath, encoding: .utf8)), [identity.trustAnchor!])
    }

    func testDeviceCertificateFitsTheC2PASigningProfile() throws {
        let now = Date()
        let identity = try enroll(now: now)
        let leaf = try XCTUnwrap(identity.certificate)
        let root = try XCTUnwrap(identity.trustAnchor)

        XCTAssertEqual(leaf.isCA, false)
        XCTAssertEqual(leaf.keyUsage, [.digitalSignature, .nonRepudiation])
        XCTAssertTrue(leaf.extendedKeyUsage?.contains(ExtendedKeyUsage.emailProtection) ?? false)
        XCTAssertEqual(leaf.subject.country, "XX", "the AL1 profile's subject C, naming no country")
        XCTAssertEqual(leaf.authorityKeyIdentifier, root.subjectKeyIdentifier)
        XCTAssertEqual(leaf.subject.organization, "Lensd Test")
        XCTAssertEqual(leaf.subject.organizationalUnit, "Devices")
        XCTAssertEqual(leaf.subject.commonName, "cam-1.example")
        XCTAssertEqual(leaf.issuer, root.subject)
        XCTAssertEqual(leaf.publicKey.curve, .p256)
        XCTAssertLessThanOrEqual(leaf.notAfter.timeIntervalSince(leaf.notBefore), 366 * day)
        XCTAssertLessThanOrEqual(leaf.notBefore, now)
        XCTAssertEqual(identity.certificateNotAfter, leaf.notAfter)

        XCTAssertEqual(root.isCA, true)
        XCTAssertTrue(root.isSelfIssued)
        XCTAssertGreaterThan(root.notAfter.timeIntervalSince(root.notBefore), 3650 * day)
        XCTAssertNil(ChainVerifier.verify(leaf: leaf, intermediates: [], anchors: [root], at: now))
        XCTAssertEqual(identity.signer?.certificateChain, [leaf], "x5chain leaves the root out")
    }

    func testLifetimeIsClampedTo366Days() throws {
        let identity = DeviceIdentity.load(configuration(lifetimeDays: 5000))
        let leaf = try XCTUnwrap(identity.certificate)
        XCTAssertEqual(leaf.notAfter.timeIntervalSince(leaf.notBefore), 366 * day)
    }

    func testRestartLoadsTheSameIdentity() throws {
        let first = try enroll()
        let snapshot = try StorageTestSupport.snapshot(stateDirectory)
        let second = try enroll()
        XCTAssertNotNil(first.fingerprint)
        XCTAssertEqual(second.fingerprint, first.fingerprint)
        XCTAssertEqual(second.trustAnchor, first.trustAnchor)
        XCTAssertEqual(first.fingerprint, SHA256Hex.encode(Digest.hash(first.certificate!.der)))
        XCTAssertEqual(try StorageTestSupport.snapshot(stateDirectory), snapshot, "a restart writes nothing")
    }

    func testSignerSignaturesVerifyWithTheCertificateKey() throws {
        let identity = try enroll()
        let signer = try XCTUnwrap(identity.signer)
        let message = Array("claim bytes".utf8)
        let signature = try signer.sign(message)
        XCTAssertEqual(signer.algorithm, .es256)
        XCTAssertEqual(signature.count, 64)
        XCTAssertTrue(identity.certificate!.publicKey.verifyECDSA(rawSignature: signature, message: message, digest: .sha256))
        XCTAssertFalse(identity.certificate!.publicKey.verifyECDSA(rawSignature: signature, message: message + [0], digest: .sha256))
    }

    func testMissingFileIsReportedAndNothingIsWritten() throws {
        for file in ["device.key", "device.pem", "root.pem"] {
            try? FileManager.default.removeItem(at: stateDirectory)
            _ = try enroll()
            try FileManager.default.removeItem(atPath: "\(identityDirectory)/\(file)")
            let before = try StorageTestSupport.snapshot(stateDirectory)

            let identity = DeviceIdentity.load(configuration())

            XCTAssertEqual(identity.state, .missing, file)
            XCTAssertNil(identity.signer)
            let problem = try XCTUnwrap(identity.problem)
            XCTAssertTrue(problem.contains(file), problem)
            XCTAssertTrue(problem.contains("remove \(identityDirectory) to enroll a new device identity"), problem)
            XCTAssertEqual(try StorageTestSupport.snapshot(stateDirectory), before, "never a silent new identity")
        }
    }

    func testEmptyIdentityDirectoryIsMissingNotAFirstStart() throws {
        try FileManager.default.createDirectory(atPath: identityDirectory, withIntermediateDirectories: true)
        let identity = DeviceIdentity.load(configuration())
        XCTAssertEqual(identity.state, .missing)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: identityDirectory), [])
    }

    func testCorruptedCertificateIsInvalid() throws {
        _ = try enroll()
        var pem = try String(contentsOfFile: chainPath, encoding: .utf8)
        pem = pem.replacingOccurrences(of: "A", with: "B")
        try pem.write(toFile: chainPath, atomically: false, encoding: .utf8)

        let identity = DeviceIdentity.load(configuration())

        XCTAssertEqual(identity.state, .invalid)
        XCTAssertNil(identity.signer)
        XCTAssertTrue(identity.problem?.contains("device.pem") ?? false, identity.problem ?? "")
    }

    func testForeignKeyIsInvalid() throws {
        _ = try enroll()
        let before = try StorageTestSupport.snapshot(stateDirectory)
        try PrivateKey.generate(.p256).pkcs8PEM().write(toFile: keyPath, atomically: false, encoding: .utf8)
        XCTAssertEqual(try StorageTestSupport.mode(keyPath), 0o600)

        let identity = DeviceIdentity.load(configuration())

        XCTAssertEqual(identity.state, .invalid)
        XCTAssertNil(identity.signer)
        XCTAssertTrue(identity.problem?.contains("does not belong") ?? false, identity.problem ?? "")
        XCTAssertEqual(try StorageTestSupport.snapshot(stateDirectory).keys.sorted(), before.keys.sorted())
    }

    func testRootThatDidNotIssueTheCertificateIsInvalid() throws {
        _ = try enroll()
        let otherKey = try PrivateKey.generate(.p256)
        let other = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Other", commonName: "Other CA"), subjectKey: otherKey.publicKey, profile: .rootCA,
            notBefore: Date(), notAfter: Date() + day, issuer: nil, selfSigningKey: otherKey)
        try other.pem.write(toFile: rootPath, atomically: false, encoding: .utf8)

        XCTAssertEqual(DeviceIdentity.load(configuration()).state, .invalid)
    }

    func testKeyReadableByOtherUsersIsInvalid() throws {
        _ = try enroll()
        XCTAssertEqual(chmod(keyPath, 0o644), 0)
        let identity = DeviceIdentity.load(configuration())
        XCTAssertEqual(identity.state, .invalid)
        XCTAssertTrue(identity.problem?.contains("chmod") ?? false, identity.problem ?? "")
    }

    /// Issue 21.3: the key is checked for its owner each time it is read (here uid 65534, while
    /// the test runs as root) and an identity directory that is a symbolic link is not followed.
    func testKeyOwnedByAnotherUserOrALinkedIdentityIsInvalid() throws {
        _ = try enroll()
        XCTAssertEqual(chown(keyPath, 65534, gid_t.max), 0)
        let foreign = DeviceIdentity.load(configuration())
        XCTAssertEqual(foreign.state, .invalid)
        XCTAssertTrue(foreign.problem?.contains("is owned by uid 65534") ?? false, foreign.problem ?? "")
        XCTAssertEqual(chown(keyPath, 0, gid_t.max), 0)
        XCTAssertEqual(DeviceIdentity.load(configuration()).state, .enrolled)

        let moved = scratch.appendingPathComponent("identity-elsewhere").path
        XCTAssertEqual(rename(identityDirectory, moved), 0)
        XCTAssertEqual(symlink(moved, identityDirectory), 0)
        let linked = DeviceIdentity.load(configuration())
        XCTAssertEqual(linked.state, .invalid)
        XCTAssertTrue(linked.problem?.contains("symbolic link") ?? false, linked.problem ?? "")
    }

    func testExpiredCertificateIsReportedWithoutANewIdentity() throws {
        let enrolled = try enroll()
        let leaf = try XCTUnwrap(enrolled.certificate)
        let before = try StorageTestSupport.snapshot(stateDirectory)

        for now in [leaf.notAfter + 1, leaf.notBefore - day] {
            let identity = DeviceIdentity.load(configuration(), now: now)
            XCTAssertEqual(identity.state, .expired)
            XCTAssertNil(identity.signer)
            XCTAssertNotNil(identity.problem)
            // GetTrustAnchor and CertificateNotAfter still answer.
            XCTAssertEqual(identity.fingerprint, enrolled.fingerprint)
            XCTAssertEqual(identity.trustAnchor, enrolled.trustAnchor)
            XCTAssertEqual(identity.state(at: leaf.notBefore + 1), .expired, "only a new load brings back a signer")
        }
        XCTAssertEqual(try StorageTestSupport.snapshot(stateDirectory), before)
    }

    func testStateAtTurnsExpiredWhenTheCertificateDoes() throws {
        let identity = try enroll()
        let notAfter = try XCTUnwrap(identity.certificateNotAfter)
        XCTAssertEqual(identity.state(at: notAfter), .enrolled)
        XCTAssertEqual(identity.state(at: notAfter + 1), .expired)
    }

    func testInterruptedEnrollmentIsRemoved() throws {
        let staging = stateDirectory.appendingPathComponent(".tmp-identity-42")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try Data("key".utf8).write(to: staging.appendingPathComponent("device.key"))

        _ = try enroll()

        XCTAssertFalse(StorageTestSupport.exists(staging.path))
    }

    func testLongDeviceNameIsCutToWhatX509Allows() throws {
        var configuration = configuration()
        configuration.deviceName = String(repeating: "n", count: 100)
        let identity = DeviceIdentity.load(configuration)
        XCTAssertEqual(identity.state, .enrolled, identity.problem ?? "")
        XCTAssertEqual(identity.certificate?.subject.commonName?.count, 64)
    }
}
