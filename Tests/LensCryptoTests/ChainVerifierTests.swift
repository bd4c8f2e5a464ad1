import Foundation
import LensCrypto
import XCTest

final class ChainVerifierTests: XCTestCase {
    func testTrustedWithRootAnchor() throws {
        let chain = try TestChain.make()
        XCTAssertNil(ChainVerifier.verify(leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: Date()))
        XCTAssertNil(ChainVerifier.verify(leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: nil))
    }

    func testIntermediateAsAnchorIsAPartialChain() throws {
        let chain = try TestChain.make()
        XCTAssertNil(ChainVerifier.verify(leaf: chain.leaf, intermediates: [], anchors: [chain.intermediate], at: Date()))
    }

    func testUnrelatedRootIsUntrusted() throws {
        let chain = try TestChain.make()
        let other = try TestChain.make()
        let reason = ChainVerifier.verify(leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [other.root, other.intermediate], at: Date())
        XCTAssertEqual(reason, "unable to get local issuer certificate")
        XCTAssertNotNil(ChainVerifier.verify(leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [], at: Date()))
    }

    func testMissingIntermediateIsUntrusted() throws {
        let chain = try TestChain.make()
        XCTAssertNotNil(ChainVerifier.verify(leaf: chain.leaf, intermediates: [], anchors: [chain.root], at: Date()))
    }

    func testValidityWindow() throws {
        let notBefore = Date(timeIntervalSinceNow: -86400 * 2)
        let notAfter = Date(timeIntervalSinceNow: -86400)
        let chain = try TestChain.make(leafNotBefore: notBefore, leafNotAfter: notAfter)
        let verify = { (at: Date?) in
            ChainVerifier.verify(leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: at)
        }
        XCTAssertEqual(verify(Date()), "certificate has expired")
        XCTAssertNil(verify(nil))
        XCTAssertNil(verify(notBefore.addingTimeInterval(3600)))
        XCTAssertEqual(verify(notBefore.addingTimeInterval(-3600)), "certificate is not yet valid")
    }

    func testStrictModeRequiresAuthorityKeyIdentifier() throws {
        let chain = try TestChain.make()
        let key = try PrivateKey.generate(.p256)
        let leaf = try CertificateIssuer.issue(
            subject: DistinguishedName(commonName: "no aki"), subjectKey: key.publicKey,
            profile: .custom(isCA: false, keyUsage: .digitalSignature, extendedKeyUsage: nil, authorityKeyIdentifier: false),
            notBefore: Date(timeIntervalSinceNow: -60), notAfter: Date(timeIntervalSinceNow: 60),
            issuer: (chain.intermediate, chain.intermediateKey))
        XCTAssertEqual(
            ChainVerifier.verify(leaf: leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: Date()),
            "Missing Authority Key Identifier")
    }

    func testNonCAIssuerIsRejected() throws {
        let chain = try TestChain.make()
        let key = try PrivateKey.generate(.p256)
        let leaf = try CertificateIssuer.issue(
            subject: DistinguishedName(commonName: "signed by a leaf"), subjectKey: key.publicKey, profile: .c2paSigner,
            notBefore: Date(timeIntervalSinceNow: -60), notAfter: Date(timeIntervalSinceNow: 60),
            issuer: (chain.leaf, chain.leafKey))
        XCTAssertEqual(
            ChainVerifier.verify(leaf: leaf, intermediates: [chain.leaf, chain.intermediate], anchors: [chain.root], at: Date()),
            "invalid CA certificate")
    }

    func testConcurrentVerificationOfSharedCertificates() async throws {
        let chain = try TestChain.make()
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    ChainVerifier.verify(leaf: chain.leaf, intermediates: [chain.intermediate], anchors: [chain.root], at: Date())
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        XCTAssertEqual(results.count, 64)
        XCTAssertTrue(results.allSatisfy { $0 == nil }, "\(results)")
    }
}
