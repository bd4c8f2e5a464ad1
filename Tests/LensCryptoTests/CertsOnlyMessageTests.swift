import Foundation
import LensCrypto
import XCTest

/// PKCS#7 certs-only messages, as EST servers answer /cacerts and /simpleenroll, made by
/// `openssl crl2pkcs7` and `openssl cms` (the oracle), read by CertsOnlyMessage.
final class CertsOnlyMessageTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var chain: TestChain!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        // XCTest keeps the test case object, and its properties, until the process exits.
        addTeardownBlock { [unowned self] in tmp = nil }
        chain = try TestChain.make()
    }

    /// `openssl crl2pkcs7 -nocrl` over `certificates`: DER.
    private func certsOnly(_ certificates: [Certificate]) throws -> [UInt8] {
        var arguments = ["crl2pkcs7", "-nocrl", "-outform", "DER"]
        for (index, certificate) in certificates.enumerated() {
            arguments += ["-certfile", try tmp.write("c\(index).pem", certificate.pem)]
        }
        return try OpenSSLCLI.succeed(arguments).output
    }

    func testReadsTheCertificatesInOrderAsBase64WithAnyLineEndsAndAsDER() throws {
        let der = try certsOnly([chain.leaf, chain.intermediate, chain.root])
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        XCTAssertEqual(try CertsOnlyMessage.certificates(base64: Array(base64.utf8)), [chain.leaf, chain.intermediate, chain.root])
        XCTAssertEqual(try CertsOnlyMessage.certificates(der: der), [chain.leaf, chain.intermediate, chain.root])
    }

    func testRefusesWhatIsNotACertsOnlyMessage() throws {
        let der = try certsOnly([chain.root])
        let refusals: [(String, [UInt8], String)] = [
            ("no certificates", try OpenSSLCLI.succeed(["crl2pkcs7", "-nocrl", "-outform", "DER"]).output, "no certificates"),
            ("trailing bytes", der + [0], "not one DER PKCS#7 object"),
            ("truncated", Array(der.prefix(der.count / 2)), "not one DER PKCS#7 object"),
            ("signed", try signedMessage(), "a signed message, not certs-only"),
        ]
        for (what, bytes, reason) in refusals {
            XCTAssertThrowsError(try CertsOnlyMessage.certificates(der: bytes), what) {
                XCTAssertTrue("\($0)".contains(reason), "\(what): \($0)")
            }
        }
        XCTAssertThrowsError(try CertsOnlyMessage.certificates(base64: Array("not base64!".utf8))) {
            XCTAssertTrue("\($0)".contains("not base64"), "\($0)")
        }
    }

    /// A byte changed inside a certificate's signature: the message still parses, and the
    /// certificate no longer chains to the root.
    func testAChangedByteIsCaughtByTheChainCheck() throws {
        var der = try certsOnly([chain.intermediate])
        let signature = try XCTUnwrap(findLast(chain.intermediate.der.suffix(8), in: der))
        der[signature] ^= 0x01
        let parsed = try CertsOnlyMessage.certificates(der: der)
        XCTAssertNil(ChainVerifier.verify(leaf: chain.intermediate, intermediates: [], anchors: [chain.root], at: nil))
        XCTAssertNotNil(ChainVerifier.verify(leaf: parsed[0], intermediates: [], anchors: [chain.root], at: nil))
    }

    private func signedMessage() throws -> [UInt8] {
        let key = try tmp.write("leaf.key", try chain.leafKey.pkcs8PEM())
        return try OpenSSLCLI.succeed(["cms", "-sign", "-binary", "-nodetach", "-in", try tmp.write("content", "x"),
                                       "-signer", try tmp.write("leaf.pem", chain.leaf.pem), "-inkey", key, "-outform", "DER"]).output
    }

    private func findLast(_ needle: ArraySlice<UInt8>, in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).last { Array(haystack[$0..<($0 + needle.count)]) == Array(needle) }
    }
}
