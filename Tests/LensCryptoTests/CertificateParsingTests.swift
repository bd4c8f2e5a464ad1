import Foundation
import LensCrypto
import XCTest

final class CertificateParsingTests: XCTestCase {
    func testTruncatedDERThrows() throws {
        let der = try TestChain.make().leaf.der
        for length in 0..<der.count {
            XCTAssertThrowsError(try Certificate(der: Array(der.prefix(length))), "prefix \(length)")
        }
        XCTAssertNoThrow(try Certificate(der: der))
    }

    func testTrailingBytesThrow() throws {
        let der = try TestChain.make().leaf.der
        for trailer: [UInt8] in [[0], [0x30, 0x00], der] {
            XCTAssertThrowsError(try Certificate(der: der + trailer)) { error in
                XCTAssertEqual((error as? CryptoError)?.reason, "trailing bytes after DER object")
            }
        }
    }

    func testRandomBytesThrow() {
        for round in 0..<300 {
            var bytes = [UInt8].random(count: Int.random(in: 0...700))
            if round.isMultiple(of: 2), bytes.count > 4 {
                // Look like a long-form SEQUENCE so the parser gets past the first byte.
                bytes[0] = 0x30
                bytes[1] = 0x82
                bytes[2] = UInt8((bytes.count - 4) >> 8)
                bytes[3] = UInt8((bytes.count - 4) & 0xFF)
            }
            XCTAssertThrowsError(try Certificate(der: bytes))
        }
    }

    func testCorruptedDERNeverCrashes() throws {
        let der = try TestChain.make().leaf.der
        for position in 0..<der.count {
            var corrupted = der
            corrupted[position] ^= 0xFF
            if let certificate = try? Certificate(der: corrupted) {
                // Whatever parsed must still answer every question without crashing.
                _ = (certificate.subject, certificate.issuer, certificate.serialNumberHex, certificate.isCA)
                _ = (certificate.keyUsage, certificate.extendedKeyUsage, certificate.signatureAlgorithm, certificate.pem)
                XCTAssertEqual(certificate.der, corrupted)
            }
        }
    }

    func testMalformedExtensionIsRejectedRatherThanReportedAbsent() throws {
        let der = try TestChain.make().leaf.der
        // basicConstraints, critical, OCTET STRING holding an empty SEQUENCE (CA:FALSE).
        let basicConstraints: [UInt8] = [0x06, 0x03, 0x55, 0x1D, 0x13, 0x01, 0x01, 0xFF, 0x04, 0x02, 0x30, 0x00]
        let start = try XCTUnwrap((0...(der.count - basicConstraints.count)).first { Array(der[$0..<$0 + basicConstraints.count]) == basicConstraints })
        var corrupted = der
        corrupted[start + 10] = 0x31  // a SET where the SEQUENCE belongs
        XCTAssertThrowsError(try Certificate(der: corrupted)) { error in
            XCTAssertEqual((error as? CryptoError)?.reason, "malformed or duplicated extension")
        }
    }

    func testParsePEMBundleInOrder() throws {
        let chain = try TestChain.make()
        let bundle = "leaf follows\n" + chain.leaf.pem + "\n" + (try chain.leafKey.pkcs8PEM()) + "then the intermediate\n" + chain.intermediate.pem
        XCTAssertEqual(try Certificate.parsePEM(bundle), [chain.leaf, chain.intermediate])
        XCTAssertEqual(try Certificate.parsePEM(chain.root.pem), [chain.root])
        XCTAssertEqual(try Certificate.parsePEM(chain.root.pem.replacingOccurrences(of: "\n", with: "\r\n")), [chain.root])
    }

    func testParsePEMRejectsInputWithoutCertificates() throws {
        let keyPEM = try PrivateKey.generate(.p256).pkcs8PEM()
        for input in ["", "hello", keyPEM] {
            XCTAssertThrowsError(try Certificate.parsePEM(input)) { error in
                XCTAssertEqual((error as? CryptoError)?.operation, "parse PEM certificates")
            }
        }
    }

    func testParsePEMRejectsMalformedBlocks() throws {
        let pem = try TestChain.make().leaf.pem
        let missingEnd = pem.replacingOccurrences(of: "-----END CERTIFICATE-----\n", with: "")
        let badBase64 = pem.replacingOccurrences(of: "\n", with: "*\n", options: [], range: pem.range(of: "-----\n")!.upperBound..<pem.endIndex)
        let lines = pem.split(separator: "\n")
        let truncatedBody = ([lines[0], lines[1]] + lines.suffix(1)).joined(separator: "\n") + "\n"
        for input in [missingEnd, badBase64, truncatedBody, pem + missingEnd] {
            XCTAssertThrowsError(try Certificate.parsePEM(input), input)
        }
    }

    func testPEMMatchesOpenSSLCLI() throws {
        let leaf = try TestChain.make().leaf
        let der = try OpenSSLCLI.succeed(["x509", "-outform", "DER"], input: Array(leaf.pem.utf8)).output
        XCTAssertEqual(der, leaf.der)
        let pem = try OpenSSLCLI.succeed(["x509"], input: Array(leaf.pem.utf8)).text
        XCTAssertEqual(pem, leaf.pem)
    }

    func testParsesOpenSSLCLICertificate() throws {
        let pem = try OpenSSLCLI.succeed([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384", "-nodes", "-keyout", "/dev/null",
            "-subj", "/C=DE/O=Other Org/OU=Lab/CN=cli cert", "-days", "2",
            "-addext", "1.2.3.4.5=critical,ASN1:NULL",
        ]).text
        let certificate = try XCTUnwrap(Certificate.parsePEM(pem).first)
        let name = DistinguishedName(country: "DE", organization: "Other Org", organizationalUnit: "Lab", commonName: "cli cert")
        XCTAssertEqual(certificate.subject, name)
        XCTAssertEqual(certificate.issuer, name)
        XCTAssertTrue(certificate.isSelfIssued)
        XCTAssertEqual(certificate.version, 3)
        XCTAssertEqual(certificate.publicKey.curve, .p384)
        XCTAssertEqual(certificate.signatureAlgorithm, "ecdsa-with-SHA256")
        XCTAssertTrue(certificate.hasUnknownCriticalExtension)
        XCTAssertEqual(certificate.notAfter.timeIntervalSince(certificate.notBefore), 2 * 86400)

        let serial = try OpenSSLCLI.succeed(["x509", "-noout", "-serial"], input: Array(pem.utf8)).text
        XCTAssertEqual(serial, "serial=\(certificate.serialNumberHex)\n")
        let fingerprint = try OpenSSLCLI.succeed(["x509", "-noout", "-fingerprint", "-sha256"], input: Array(pem.utf8)).text
        XCTAssertEqual(
            fingerprint.uppercased().filter(\.isHexDigit),
            ("SHA256FINGERPRINT" + certificate.sha256Fingerprint.hex).uppercased().filter(\.isHexDigit))
    }

    func testParsesRSACertificate() throws {
        let pem = try OpenSSLCLI.succeed([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "/dev/null", "-subj", "/CN=rsa", "-days", "1",
        ]).text
        let certificate = try XCTUnwrap(Certificate.parsePEM(pem).first)
        XCTAssertEqual(certificate.publicKey.typeName, "RSA")
        XCTAssertNil(certificate.publicKey.curve)
        XCTAssertEqual(certificate.publicKey.bits, 2048)
        XCTAssertEqual(certificate.signatureAlgorithm, "sha256WithRSAEncryption")
    }

    func testVersion1CertificateHasNoExtensions() throws {
        let directory = try TemporaryDirectory()
        let keyPath = try directory.write("key.pem", try PrivateKey.generate(.p256).pkcs8PEM())
        let csr = try OpenSSLCLI.succeed(["req", "-new", "-key", keyPath, "-subj", "/CN=v1"]).text
        let csrPath = try directory.write("req.csr", csr)
        let pem = try OpenSSLCLI.succeed(["x509", "-req", "-in", csrPath, "-signkey", keyPath, "-days", "1"]).text
        let certificate = try XCTUnwrap(Certificate.parsePEM(pem).first)
        XCTAssertEqual(certificate.version, 1)
        XCTAssertNil(certificate.isCA)
        XCTAssertNil(certificate.keyUsage)
        XCTAssertNil(certificate.extendedKeyUsage)
        XCTAssertFalse(certificate.hasSubjectKeyIdentifier)
        XCTAssertFalse(certificate.hasAuthorityKeyIdentifier)
        XCTAssertNil(certificate.subjectKeyIdentifier)
    }

    func testCryptoErrorDescription() {
        let error = CryptoError(operation: "parse certificate", reason: "empty input")
        XCTAssertEqual(error.description, "parse certificate: empty input")
        XCTAssertThrowsError(try Certificate(der: [])) { error in
            XCTAssertEqual("\(error)", "parse certificate: empty input")
        }
    }
}
