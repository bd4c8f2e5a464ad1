import Foundation
import LensCrypto
import XCTest

final class KeyPEMTests: XCTestCase {
    func testPKCS8RoundTrip() throws {
        for curve in EllipticCurve.allCases {
            let key = try PrivateKey.generate(curve)
            let pem = try key.pkcs8PEM()
            XCTAssertTrue(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), pem)
            XCTAssertTrue(pem.hasSuffix("-----END PRIVATE KEY-----\n"), pem)
            XCTAssertTrue(pem.split(separator: "\n").allSatisfy { $0.count <= 64 })

            let reloaded = try PrivateKey(pem: pem)
            XCTAssertEqual(reloaded.curve, curve)
            XCTAssertEqual(reloaded.publicKey, key.publicKey)
            XCTAssertEqual(try reloaded.pkcs8PEM(), pem)
            let signature = try reloaded.signECDSA([1, 2, 3], digest: .sha384)
            XCTAssertTrue(key.publicKey.verifyECDSA(rawSignature: signature, message: [1, 2, 3], digest: .sha384))
        }
    }

    func testOpenSSLCLIReadsOurPKCS8() throws {
        for curve in EllipticCurve.allCases {
            let key = try PrivateKey.generate(curve)
            let spki = try OpenSSLCLI.succeed(["pkey", "-pubout", "-outform", "DER"], input: Array(try key.pkcs8PEM().utf8)).output
            XCTAssertEqual(spki, key.publicKey.subjectPublicKeyInfoDER, "\(curve)")
        }
    }

    func testSEC1FromOpenSSLCLI() throws {
        for curve in EllipticCurve.allCases {
            let sec1 = try OpenSSLCLI.succeed(["ecparam", "-name", curve.openSSLName, "-genkey", "-noout"]).text
            XCTAssertTrue(sec1.hasPrefix("-----BEGIN EC PRIVATE KEY-----"), sec1)

            let key = try PrivateKey(pem: sec1)
            XCTAssertEqual(key.curve, curve)
            let spki = try OpenSSLCLI.succeed(["ec", "-pubout", "-outform", "DER"], input: Array(sec1.utf8)).output
            XCTAssertEqual(key.publicKey.subjectPublicKeyInfoDER, spki, "\(curve)")

            let signature = try key.signECDSA([9, 8, 7], digest: .sha256)
            XCTAssertTrue(key.publicKey.verifyECDSA(rawSignature: signature, message: [9, 8, 7], digest: .sha256))
            XCTAssertTrue(try key.pkcs8PEM().hasPrefix("-----BEGIN PRIVATE KEY-----"))
            XCTAssertEqual(try PrivateKey(pem: key.pkcs8PEM()).publicKey, key.publicKey)
        }
    }

    func testRejectsMalformedPEM() throws {
        let pem = try PrivateKey.generate(.p256).pkcs8PEM()
        let truncated = String(pem.prefix(pem.count / 2))
        let corrupted = pem.replacingOccurrences(of: "\n", with: "\n!", options: [], range: pem.index(pem.startIndex, offsetBy: 40)..<pem.endIndex)
        let publicOnly = "-----BEGIN PUBLIC KEY-----\n"
            + Data(try PrivateKey.generate(.p256).publicKey.subjectPublicKeyInfoDER).base64EncodedString()
            + "\n-----END PUBLIC KEY-----\n"
        for input in ["", "hello", truncated, corrupted, publicOnly] {
            XCTAssertThrowsError(try PrivateKey(pem: input), "\(input.debugDescription)") { error in
                XCTAssertEqual((error as? CryptoError)?.operation, "parse private key")
            }
        }
    }

    func testRejectsEncryptedKeyWithoutPrompting() throws {
        let plain = try PrivateKey.generate(.p256).pkcs8PEM()
        let encrypted = try OpenSSLCLI.succeed(
            ["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-passout", "pass:secret"], input: Array(plain.utf8)).text
        XCTAssertTrue(encrypted.contains("ENCRYPTED PRIVATE KEY"))
        XCTAssertThrowsError(try PrivateKey(pem: encrypted))
    }

    func testRSAKeyHasNoCurveAndCannotSign() throws {
        let pem = try OpenSSLCLI.succeed(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).text
        let key = try PrivateKey(pem: pem)
        XCTAssertNil(key.curve)
        XCTAssertNil(key.publicKey.curve)
        XCTAssertEqual(key.publicKey.typeName, "RSA")
        XCTAssertEqual(key.publicKey.bits, 2048)
        XCTAssertThrowsError(try key.signECDSA([1], digest: .sha256))
        XCTAssertFalse(key.publicKey.verifyECDSA(rawSignature: [UInt8](repeating: 1, count: 64), message: [1], digest: .sha256))
    }

    func testEd25519TypeName() throws {
        let key = try PrivateKey(pem: OpenSSLCLI.succeed(["genpkey", "-algorithm", "ED25519"]).text)
        XCTAssertEqual(key.publicKey.typeName, "ED25519")
        XCTAssertNil(key.curve)
    }

    func testPublicKeyFromSubjectPublicKeyInfo() throws {
        let key = try PrivateKey.generate(.p384)
        let spki = key.publicKey.subjectPublicKeyInfoDER
        let decoded = try PublicKey(subjectPublicKeyInfoDER: spki)
        XCTAssertEqual(decoded, key.publicKey)
        XCTAssertEqual(decoded.curve, .p384)
        let signature = try key.signECDSA([5], digest: .sha512)
        XCTAssertTrue(decoded.verifyECDSA(rawSignature: signature, message: [5], digest: .sha512))

        XCTAssertThrowsError(try PublicKey(subjectPublicKeyInfoDER: spki + [0]))
        XCTAssertThrowsError(try PublicKey(subjectPublicKeyInfoDER: Array(spki.dropLast())))
        XCTAssertThrowsError(try PublicKey(subjectPublicKeyInfoDER: []))
        XCTAssertNotEqual(decoded, try PrivateKey.generate(.p384).publicKey)
    }
}
