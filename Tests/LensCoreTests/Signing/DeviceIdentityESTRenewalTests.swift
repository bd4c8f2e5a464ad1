import Foundation
import LensCrypto
@testable import LensIdentity
import XCTest

@testable import LensCore

/// A crash in the middle of an EST renewal (named DeviceIdentity… so the identity filter runs it):
/// the renewed chain is written before its key replaces the old one, so a crash between the two
/// leaves `device.next.key` beside a chain that certifies it. The next load finishes the switch;
/// a waiting key the chain does not certify (a crash before the install) is removed instead.
final class DeviceIdentityESTRenewalTests: XCTestCase {
    private var scratch: URL!
    private let day: TimeInterval = 86_400

    override func setUpWithError() throws {
        scratch = try StorageTestSupport.makeScratchDirectory("est-renewal")
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    private var enrollment: URL { scratch.appendingPathComponent("state/enrollment") }

    /// `<state>/enrollment` with the old key as device.key, `next` as device.next.key, and a chain
    /// certifying `certified`; the configuration of `enrollment = est`.
    private func stateAfterCrash(old: PrivateKey, next: PrivateKey, certified: PrivateKey) throws -> IdentityConfiguration {
        let now = Date()
        let rootKey = try PrivateKey.generate(.p256)
        let root = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Org", commonName: "Org Root"), subjectKey: rootKey.publicKey, profile: .rootCA,
            notBefore: now - day, notAfter: now + 3650 * day, issuer: nil, selfSigningKey: rootKey)
        let leaf = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Org", commonName: "cam"), subjectKey: certified.publicKey, profile: .c2paSigner,
            notBefore: now - day, notAfter: now + 30 * day, issuer: (root, rootKey))
        try FileManager.default.createDirectory(at: enrollment, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (name, key) in [("device.key", old), ("device.next.key", next)] {
            XCTAssertTrue(FileManager.default.createFile(atPath: enrollment.appendingPathComponent(name).path,
                                                         contents: Data(try key.pkcs8PEM().utf8), attributes: [.posixPermissions: 0o600]))
        }
        try leaf.pem.write(to: enrollment.appendingPathComponent("chain.pem"), atomically: true, encoding: .utf8)
        let anchor = scratch.appendingPathComponent("root.pem")
        try root.pem.write(to: anchor, atomically: true, encoding: .utf8)
        var configuration = IdentityConfiguration(stateDirectory: scratch.appendingPathComponent("state"), deviceName: "cam")
        configuration.enrollment = .est
        configuration.organizationTrustAnchorPath = anchor.path
        return configuration
    }

    private func storedKey() throws -> PrivateKey {
        try PrivateKey(pem: try String(contentsOf: enrollment.appendingPathComponent("device.key"), encoding: .utf8))
    }

    private var nextKeyExists: Bool { FileManager.default.fileExists(atPath: enrollment.appendingPathComponent("device.next.key").path) }

    /// Loads the identity after a crash in which the chain certified the waiting key (or the old
    /// one): enrolled, with the certified key as device.key and no key left waiting.
    private func assertLoadKeepsTheCertifiedKey(chainCertifiesNextKey: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let old = try PrivateKey.generate(.p256), next = try PrivateKey.generate(.p256)
        let certified = chainCertifiesNextKey ? next : old
        let identity = DeviceIdentity.load(try stateAfterCrash(old: old, next: next, certified: certified))
        XCTAssertEqual(identity.state, .enrolled, identity.problem ?? "", file: file, line: line)
        XCTAssertEqual(try storedKey().publicKey, certified.publicKey, file: file, line: line)
        XCTAssertFalse(nextKeyExists, file: file, line: line)
    }

    func testACrashAfterTheChainWasInstalledFinishesTheSwitch() throws {
        try assertLoadKeepsTheCertifiedKey(chainCertifiesNextKey: true)
    }

    func testACrashBeforeTheInstallKeepsTheOldKeyAndDropsTheWaitingOne() throws {
        try assertLoadKeepsTheCertifiedKey(chainCertifiesNextKey: false)
    }
}
