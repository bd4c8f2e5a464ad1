import LensCrypto
import XCTest

final class ECDSATests: XCTestCase {
    private let message = Array("a photo's claim".utf8)

    func testGeneratedKeyProperties() throws {
        for (curve, bits) in zip(EllipticCurve.allCases, [256, 384, 521]) {
            let key = try PrivateKey.generate(curve)
            XCTAssertEqual(key.curve, curve)
            XCTAssertEqual(key.publicKey.curve, curve)
            XCTAssertEqual(key.publicKey.typeName, "EC")
            XCTAssertEqual(key.publicKey.bits, bits)
        }
        XCTAssertEqual(EllipticCurve.allCases.map(\.coordinateSize), [32, 48, 66])
    }

    func testSignAndVerifyPerCurveAndDigest() throws {
        for curve in EllipticCurve.allCases {
            let key = try PrivateKey.generate(curve)
            for digest in DigestAlgorithm.allCases {
                let signature = try key.signECDSA(message, digest: digest)
                XCTAssertEqual(signature.count, 2 * curve.coordinateSize, "\(curve) \(digest)")
                XCTAssertTrue(key.publicKey.verifyECDSA(rawSignature: signature, message: message, digest: digest), "\(curve) \(digest)")

                let otherDigest = DigestAlgorithm.allCases.first { $0 != digest }!
                XCTAssertFalse(key.publicKey.verifyECDSA(rawSignature: signature, message: message, digest: otherDigest))
            }
        }
    }

    func testEmptyMessage() throws {
        let key = try PrivateKey.generate(.p256)
        let signature = try key.signECDSA([], digest: .sha256)
        XCTAssertTrue(key.publicKey.verifyECDSA(rawSignature: signature, message: [], digest: .sha256))
    }

    func testFlippedBitsFail() throws {
        for curve in EllipticCurve.allCases {
            let key = try PrivateKey.generate(curve)
            let signature = try key.signECDSA(message, digest: .sha256)
            for bit in [0, 7, message.count * 4, message.count * 8 - 1] {
                var tampered = message
                tampered[bit / 8] ^= 1 << (bit % 8)
                XCTAssertFalse(key.publicKey.verifyECDSA(rawSignature: signature, message: tampered, digest: .sha256), "\(curve) message bit \(bit)")
            }
            for bit in [0, 9, signature.count * 4, signature.count * 4 + 3, signature.count * 8 - 1] {
                var tampered = signature
                tampered[bit / 8] ^= 1 << (bit % 8)
                XCTAssertFalse(key.publicKey.verifyECDSA(rawSignature: tampered, message: message, digest: .sha256), "\(curve) signature bit \(bit)")
            }
        }
    }

    func testWrongKeyFails() throws {
        let signer = try PrivateKey.generate(.p256)
        let other = try PrivateKey.generate(.p256)
        let signature = try signer.signECDSA(message, digest: .sha256)
        XCTAssertFalse(other.publicKey.verifyECDSA(rawSignature: signature, message: message, digest: .sha256))
    }

    func testMalformedSignaturesReturnFalse() throws {
        for curve in EllipticCurve.allCases {
            let key = try PrivateKey.generate(curve)
            let size = curve.coordinateSize
            let signature = try key.signECDSA(message, digest: .sha256)
            let malformed: [[UInt8]] = [
                [],
                [0],
                Array(signature.dropLast()),
                signature + [0],
                [0] + signature,
                signature + signature,
                Array(signature.prefix(size)),
                ECDSASignatureDER.encode(raw: signature),
                [UInt8](repeating: 0, count: 2 * size),
                [UInt8](repeating: 0xFF, count: 2 * size),
                [UInt8](repeating: 0, count: size) + signature.suffix(size),
                Array(signature.prefix(size)) + [UInt8](repeating: 0, count: size),
            ]
            for candidate in malformed {
                XCTAssertFalse(key.publicKey.verifyECDSA(rawSignature: candidate, message: message, digest: .sha256), "\(curve) length \(candidate.count)")
            }
            for length in 0...(4 * size) where length != 2 * size {
                XCTAssertFalse(key.publicKey.verifyECDSA(rawSignature: .random(count: length), message: message, digest: .sha256))
            }
            // A failed verification must not leave errors behind that later operations would report.
            XCTAssertTrue(key.publicKey.verifyECDSA(rawSignature: signature, message: message, digest: .sha256))
        }
    }

    func testOpenSSLCLIVerifiesOurSignatures() throws {
        let directory = try TemporaryDirectory()
        for curve in EllipticCurve.allCases {
            let key = try PrivateKey.generate(curve)
            let keyPath = try directory.write("\(curve.openSSLName).pem", key.pkcs8PEM())
            for digest in DigestAlgorithm.allCases {
                let signature = try key.signECDSA(message, digest: digest)
                let signaturePath = directory.url.appendingPathComponent("\(curve.openSSLName)-\(digest).sig")
                try Data(ECDSASignatureDER.encode(raw: signature)).write(to: signaturePath)
                let result = try OpenSSLCLI.succeed(
                    ["dgst", "-\(digest.rawValue)", "-prverify", keyPath, "-signature", signaturePath.path], input: message)
                XCTAssertTrue(result.text.contains("Verified OK"), "\(curve) \(digest): \(result.text)")
            }
        }
    }

    func testWeVerifyOpenSSLCLISignatures() throws {
        let directory = try TemporaryDirectory()
        for curve in EllipticCurve.allCases {
            let key = try PrivateKey.generate(curve)
            let keyPath = try directory.write("\(curve.openSSLName).pem", key.pkcs8PEM())
            for digest in DigestAlgorithm.allCases {
                let der = try OpenSSLCLI.succeed(["dgst", "-\(digest.rawValue)", "-sign", keyPath], input: message).output
                let raw = try XCTUnwrap(ECDSASignatureDER.decode(der, coordinateSize: curve.coordinateSize))
                XCTAssertTrue(key.publicKey.verifyECDSA(rawSignature: raw, message: message, digest: digest), "\(curve) \(digest)")
            }
        }
    }
}
