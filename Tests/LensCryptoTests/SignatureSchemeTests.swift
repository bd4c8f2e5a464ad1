import Foundation
import LensCrypto
import XCTest

/// RSASSA-PSS and Ed25519 verification against signatures the openssl tool makes (COSE's forms:
/// PSS with salt = digest length and MGF1 on the same digest; pure Ed25519).
final class SignatureSchemeTests: XCTestCase {
    let message = Array("the claim bytes".utf8)

    func testRSAPSSFromOpenSSL() throws {
        let tmp = try TemporaryDirectory()
        let key = try tmp.write("rsa.pem", OpenSSLCLI.succeed(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).text)
        let publicKey = try PrivateKey(pem: String(contentsOfFile: key, encoding: .utf8)).publicKey
        let data = try tmp.write("message", String(decoding: message, as: UTF8.self))
        for digest in [DigestAlgorithm.sha256, .sha384, .sha512] {
            let signature = try pss(key: key, data: data, digest: digest, salt: "digest")
            XCTAssertTrue(publicKey.verify(signature: signature, message: message, scheme: .rsaPSS(digest)), "\(digest)")
            XCTAssertFalse(publicKey.verify(signature: signature, message: message + [0], scheme: .rsaPSS(digest)))
            var damaged = signature
            damaged[damaged.count / 2] ^= 1
            XCTAssertFalse(publicKey.verify(signature: damaged, message: message, scheme: .rsaPSS(digest)))
            XCTAssertFalse(publicKey.verify(signature: signature, message: message, scheme: .ecdsa(digest)))
        }
        // COSE fixes the salt at the digest's length; a longer one is another signature scheme.
        let longSalt = try pss(key: key, data: data, digest: .sha256, salt: "max")
        XCTAssertFalse(publicKey.verify(signature: longSalt, message: message, scheme: .rsaPSS(.sha256)))
    }

    func testShortRSAKeysAreRefused() throws {
        let tmp = try TemporaryDirectory()
        let key = try tmp.write("rsa.pem", OpenSSLCLI.succeed(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"]).text)
        let publicKey = try PrivateKey(pem: String(contentsOfFile: key, encoding: .utf8)).publicKey
        let signature = try pss(key: key, data: try tmp.write("message", String(decoding: message, as: UTF8.self)), digest: .sha256, salt: "digest")
        XCTAssertFalse(publicKey.verify(signature: signature, message: message, scheme: .rsaPSS(.sha256)))
    }

    func testEd25519FromOpenSSL() throws {
        let tmp = try TemporaryDirectory()
        let key = try tmp.write("ed.pem", OpenSSLCLI.succeed(["genpkey", "-algorithm", "ED25519"]).text)
        let publicKey = try PrivateKey(pem: String(contentsOfFile: key, encoding: .utf8)).publicKey
        let data = try tmp.write("message", String(decoding: message, as: UTF8.self))
        let signature = try OpenSSLCLI.succeed(["pkeyutl", "-sign", "-rawin", "-inkey", key, "-in", data]).output
        XCTAssertEqual(signature.count, 64)
        XCTAssertTrue(publicKey.verify(signature: signature, message: message, scheme: .ed25519))
        XCTAssertFalse(publicKey.verify(signature: signature, message: Array(message.dropLast()), scheme: .ed25519))
        XCTAssertFalse(publicKey.verify(signature: Array(signature.dropLast()), message: message, scheme: .ed25519))
        XCTAssertFalse(publicKey.verify(signature: signature, message: message, scheme: .rsaPSS(.sha256)))
        XCTAssertFalse(try PrivateKey.generate(.p256).publicKey.verify(signature: signature, message: message, scheme: .ed25519))
    }

    private func pss(key: String, data: String, digest: DigestAlgorithm, salt: String) throws -> [UInt8] {
        try OpenSSLCLI.succeed(["dgst", "-\(digest.rawValue)", "-sign", key, "-sigopt", "rsa_padding_mode:pss",
                                "-sigopt", "rsa_pss_saltlen:\(salt)", "-sigopt", "rsa_mgf1_md:\(digest.rawValue)", data]).output
    }
}
