import Foundation
import LensCrypto
import XCTest

/// The TPM key blob TPMAttestation loads into the TPM, read from fuzz-tpm-key-blob's seeds
/// (fuzz/make-tpm-key-seeds.sh: a swtpm-made key's areas in the provider's ASN.1).
final class TPMKeyBlobTests: XCTestCase {
    private func seed(_ name: String) throws -> [UInt8] {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../fuzz/corpus/fuzz-tpm-key-blob")
        return [UInt8](try Data(contentsOf: corpus.appendingPathComponent(name)))
    }

    func testAProviderBlobGivesItsParentAndAreas() throws {
        let blob = try TPMKeyBlob(der: try seed("loadable.der"))
        XCTAssertEqual(blob.parent, 0x4000_0001)
        XCTAssertEqual(blob.publicArea.count, 88)
        XCTAssertEqual(blob.publicContents?.count, 86)
        XCTAssertEqual(blob.publicContents?.prefix(2), [0x00, 0x23], "an ECC key's TPMT_PUBLIC")
        XCTAssertEqual(blob.privateArea.count, 128)
        let pem = try TPMKeyBlob(pem: String(decoding: try seed("loadable.pem"), as: UTF8.self))
        XCTAssertEqual(pem.publicArea, blob.publicArea)
        XCTAssertEqual(try TPMKeyBlob(der: try seed("persistent-parent.der")).parent, 0x8100_0001)
        XCTAssertEqual(try TPMKeyBlob(der: try seed("no-empty-auth.der")).privateArea, blob.privateArea)
    }

    func testWhatIsNotALoadableKeyIsRefused() throws {
        for name in ["importable-type.der", "trailing-bytes.der", "truncated.der"] {
            XCTAssertThrowsError(try TPMKeyBlob(der: try seed(name)), name)
        }
        XCTAssertNil(try TPMKeyBlob(der: try seed("public-size-mismatch.der")).publicContents)
        XCTAssertThrowsError(try TPMKeyBlob(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"))
    }
}
