import Foundation
import LensCrypto
import XCTest

/// A certificate request's extra attribute (how TPMKeyEvidence travels): its value goes in as the
/// DER it is, the request still verifies, and openssl reads the attribute back.
final class CertificateRequestAttributeTests: XCTestCase {
    func testAnAttributeTravelsVerbatimAndTheRequestVerifies() throws {
        let key = try PrivateKey.generate(.p256)
        // SEQUENCE { OCTET STRING 01 02 03, SEQUENCE {} }
        let value: [UInt8] = [0x30, 0x07, 0x04, 0x03, 0x01, 0x02, 0x03, 0x30, 0x00]
        let request = try CertificateRequest.makeDER(subject: DistinguishedName(commonName: "camera 07"), dnsNames: [], key: key,
                                                     attributes: [(oid: TPMKeyEvidence.attributeOID, value: value)])
        _ = try OpenSSLCLI.succeed(["req", "-inform", "DER", "-noout", "-verify"], input: request)
        let attributes = try OpenSSLCLI.succeed(["req", "-inform", "DER", "-noout", "-text"], input: request).text
        XCTAssertTrue(attributes.contains(TPMKeyEvidence.attributeOID), attributes)
        XCTAssertNotNil(request.firstRange(of: [0x31, 0x09] + value), "the value, alone in its SET, as given")

        let plain = try CertificateRequest.makeDER(subject: DistinguishedName(commonName: "camera 07"), dnsNames: [], key: key)
        XCTAssertFalse(try OpenSSLCLI.succeed(["req", "-inform", "DER", "-noout", "-text"], input: plain).text
            .contains(TPMKeyEvidence.attributeOID))
    }
}
