import Foundation
import LensCrypto
@testable import LensIdentity
import XCTest

@testable import LensCore

/// An administrator-installed key and chain (named DeviceIdentity… so the identity filter runs it).
final class DeviceIdentityConfiguredTests: XCTestCase {
    private var scratch: URL!
    private let day: TimeInterval = 86_400

    /// root → intermediate → leaf, as an organisation's PKI would issue them.
    private struct PKI {
        let root: Certificate
        let intermediate: Certificate
        let leaf: Certificate
        let leafKey: PrivateKey
    }

    override func setUpWithError() throws {
        scratch = try StorageTestSupport.makeScratchDirectory("configured")
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    private func makePKI(leafProfile: CertificateProfile = .c2paSigner) throws -> PKI {
        let now = Date()
        let rootKey = try PrivateKey.generate(.p256)
        let root = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Org", commonName: "Org Root"), subjectKey: rootKey.publicKey, profile: .rootCA,
            notBefore: now - day, notAfter: now + 3650 * day, issuer: nil, selfSigningKey: rootKey)
        let intermediateKey = try PrivateKey.generate(.p256)
        let intermediate = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Org", commonName: "Org Devices"), subjectKey: intermediateKey.publicKey,
            profile: .intermediateCA(pathLength: 0), notBefore: now - day, notAfter: now + 1000 * day, issuer: (root, rootKey))
        let leafKey = try PrivateKey.generate(.p256)
        let leaf = try CertificateIssuer.issue(
            subject: DistinguishedName(organization: "Org", organizationalUnit: "Devices", commonName: "cam"), subjectKey: leafKey.publicKey,
            profile: leafProfile, notBefore: now - day, notAfter: now + 300 * day, issuer: (intermediate, intermediateKey))
        return PKI(root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey)
    }

    /// Writes the files and returns a configuration naming them.
    private func install(_ pki: PKI, chain: [Certificate], anchor: Certificate?) throws -> IdentityConfiguration {
        let keyPath = scratch.appendingPathComponent("device.key").path
        let chainPath = scratch.appendingPathComponent("chain.pem").path
        XCTAssertTrue(FileManager.default.createFile(
            atPath: keyPath, contents: Data(try pki.leafKey.pkcs8PEM().utf8), attributes: [.posixPermissions: 0o600]))
        try chain.map(\.pem).joined().write(toFile: chainPath, atomically: false, encoding: .utf8)
        var anchorPath: String?
        if let anchor {
            anchorPath = scratch.appendingPathComponent("root.pem").path
            try anchor.pem.write(toFile: anchorPath!, atomically: false, encoding: .utf8)
        }
        return IdentityConfiguration(
            stateDirectory: scratch.appendingPathComponent("state"), keyPath: keyPath, chainPath: chainPath,
            trustAnchorPath: anchorPath, deviceName: "ignored")
    }

    func testConfiguredKeyAndChainAreUsed() throws {
        let pki = try makePKI()
        let configuration = try install(pki, chain: [pki.leaf, pki.intermediate], anchor: pki.root)

        let identity = DeviceIdentity.load(configuration)

        XCTAssertEqual(identity.state, .enrolled, identity.problem ?? "")
        XCTAssertEqual(identity.certificate, pki.leaf)
        XCTAssertEqual(identity.trustAnchor, pki.root)
        XCTAssertEqual(identity.signer?.certificateChain, [pki.leaf, pki.intermediate])
        let signature = try XCTUnwrap(identity.signer).sign([1, 2, 3])
        XCTAssertTrue(pki.leaf.publicKey.verifyECDSA(rawSignature: signature, message: [1, 2, 3], digest: .sha256))
        XCTAssertFalse(StorageTestSupport.exists(configuration.stateDirectory.path), "nothing of its own is made")
    }

    func testChainEndingInItsRootUsesTheRootAsAnchorAndLeavesItOutOfX5chain() throws {
        let pki = try makePKI()
        let identity = DeviceIdentity.load(try install(pki, chain: [pki.leaf, pki.intermediate, pki.root], anchor: nil))
        XCTAssertEqual(identity.state, .enrolled, identity.problem ?? "")
        XCTAssertEqual(identity.trustAnchor, pki.root)
        XCTAssertEqual(identity.signer?.certificateChain, [pki.leaf, pki.intermediate])
    }

    func testMissingConfiguredFileIsMissing() throws {
        let pki = try makePKI()
        var configuration = try install(pki, chain: [pki.leaf, pki.intermediate], anchor: pki.root)
        for path in [\IdentityConfiguration.keyPath, \.chainPath, \.trustAnchorPath] {
            var broken = configuration
            broken[keyPath: path] = scratch.appendingPathComponent("absent.pem").path
            let identity = DeviceIdentity.load(broken)
            XCTAssertEqual(identity.state, .missing)
            XCTAssertTrue(identity.problem?.contains("absent.pem") ?? false, identity.problem ?? "")
            XCTAssertNil(identity.signer)
        }
        configuration.chainPath = nil
        XCTAssertEqual(DeviceIdentity.load(configuration).state, .missing, "a key without a chain")
        XCTAssertFalse(StorageTestSupport.exists(configuration.stateDirectory.path), "never falls back to its own identity")
    }

    func testCertificateOutsideTheC2PAProfileIsInvalid() throws {
        let serverOnly = CertificateProfile.custom(
            isCA: false, keyUsage: .digitalSignature, extendedKeyUsage: [ExtendedKeyUsage.serverAuth], authorityKeyIdentifier: true)
        let pki = try makePKI(leafProfile: serverOnly)
        let identity = DeviceIdentity.load(try install(pki, chain: [pki.leaf, pki.intermediate], anchor: pki.root))
        XCTAssertEqual(identity.state, .invalid)
        XCTAssertTrue(identity.problem?.contains("emailProtection") ?? false, identity.problem ?? "")
    }

    func testChainMissingTheIntermediateIsInvalid() throws {
        let pki = try makePKI()
        let identity = DeviceIdentity.load(try install(pki, chain: [pki.leaf], anchor: pki.root))
        XCTAssertEqual(identity.state, .invalid)
    }
}
