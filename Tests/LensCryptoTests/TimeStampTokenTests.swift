import Foundation
import LensCrypto
import XCTest

/// RFC 3161 tokens made by `openssl ts -reply` (a TSA certificate with EKU timeStamping): genTime,
/// the imprint over exactly the stamped bytes, the CMS signature, and damage to each.
final class TimeStampTokenTests: XCTestCase {
    static let config = """
    [ req ]
    distinguished_name = dn
    prompt = no
    [ dn ]
    CN = placeholder
    [ v3_root ]
    basicConstraints = critical, CA:TRUE
    keyUsage = critical, keyCertSign
    subjectKeyIdentifier = hash
    [ v3_tsa ]
    basicConstraints = critical, CA:FALSE
    keyUsage = critical, digitalSignature
    extendedKeyUsage = critical, timeStamping
    subjectKeyIdentifier = hash
    authorityKeyIdentifier = keyid:always
    [ tsa ]
    default_tsa = tsa1
    [ tsa1 ]
    serial = DIR/serial
    signer_cert = DIR/tsa.pem
    certs = DIR/root.pem
    signer_key = DIR/tsa.key
    signer_digest = sha256
    default_policy = 1.3.6.1.4.1.99999.1
    digests = sha256, sha384
    ess_cert_id_alg = sha256
    """

    func testTokenFromOpenSSL() throws {
        let tmp = try TemporaryDirectory()
        let dir = tmp.url.path
        let config = try tmp.write("tsa.cnf", Self.config.replacingOccurrences(of: "DIR", with: dir))
        _ = try tmp.write("serial", "01\n")
        for name in ["root", "tsa"] {
            _ = try OpenSSLCLI.succeed(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", "\(dir)/\(name).key"])
        }
        _ = try OpenSSLCLI.succeed(["req", "-new", "-x509", "-key", "\(dir)/root.key", "-subj", "/CN=Test TSA Root", "-days", "30",
                                    "-config", config, "-extensions", "v3_root", "-out", "\(dir)/root.pem"])
        _ = try OpenSSLCLI.succeed(["req", "-new", "-key", "\(dir)/tsa.key", "-subj", "/CN=Test TSA", "-config", config, "-out", "\(dir)/tsa.csr"])
        _ = try OpenSSLCLI.succeed(["x509", "-req", "-in", "\(dir)/tsa.csr", "-CA", "\(dir)/root.pem", "-CAkey", "\(dir)/root.key",
                                    "-set_serial", "7", "-days", "30", "-extfile", config, "-extensions", "v3_tsa", "-out", "\(dir)/tsa.pem"])
        let stamped = Array("the countersigned bytes".utf8)
        let data = try tmp.write("data", String(decoding: stamped, as: UTF8.self))
        _ = try OpenSSLCLI.succeed(["ts", "-query", "-data", data, "-sha384", "-cert", "-out", "\(dir)/q.tsq"])
        let before = Date(timeIntervalSinceNow: -1)
        _ = try OpenSSLCLI.succeed(["ts", "-reply", "-config", config, "-queryfile", "\(dir)/q.tsq", "-chain", "\(dir)/root.pem",
                                    "-token_out", "-out", "\(dir)/token.der"])
        let after = Date(timeIntervalSinceNow: 1)
        let der = Array(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/token.der")))

        let token = try TimeStampToken(der: der)
        XCTAssertTrue((before...after).contains(token.genTime), "\(token.genTime)")
        XCTAssertEqual(token.imprintAlgorithm, .sha384)
        XCTAssertTrue(token.imprintMatches(stamped))
        XCTAssertFalse(token.imprintMatches(stamped + [0]))
        XCTAssertNil(token.signatureProblem())
        let tsa = try Certificate.parsePEM(String(contentsOfFile: "\(dir)/tsa.pem", encoding: .utf8))[0]
        let root = try Certificate.parsePEM(String(contentsOfFile: "\(dir)/root.pem", encoding: .utf8))[0]
        XCTAssertEqual(token.certificates.first, tsa, "the signer comes first")
        XCTAssertTrue(token.certificates.contains(root))
        XCTAssertNil(ChainVerifier.verify(leaf: tsa, intermediates: [], anchors: [root], at: token.genTime))

        // The CMS signature is the token's last bytes: a changed one no longer verifies.
        var damaged = der
        damaged[damaged.count - 5] ^= 1
        if let parsed = try? TimeStampToken(der: damaged) {
            XCTAssertNotNil(parsed.signatureProblem())
        }
        XCTAssertThrowsError(try TimeStampToken(der: der + [0]), "trailing bytes")
        XCTAssertThrowsError(try TimeStampToken(der: Array(der.prefix(der.count / 2))), "truncated")
        XCTAssertThrowsError(try TimeStampToken(der: []))
    }
}
