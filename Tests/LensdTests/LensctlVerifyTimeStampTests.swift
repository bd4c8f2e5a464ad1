import Foundation
import LensTestSupport
import XCTest

/// `lensctl verify` on time-stamped files (signed by c2pa-python against Tests/oracle/local_tsa.py),
/// offline, today and — under faketime — after the signer's certificate has expired: it says
/// when and by whom a file was time-stamped, or when it turns Invalid, and reaches c2pa-python's
/// state on stamped, unstamped, untrusted-TSA and damaged-token files.
final class LensctlVerifyTimeStampTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var pki: TestPKI!
    private var tsa: LocalTSA!
    private let runner = LensctlRunner(address: "unused: verify runs offline")
    /// The signer's certificate lives a day: three days on it has expired.
    private let afterExpiry = "+3d"

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"), leafDays: 1)
        tsa = try LocalTSA(directory: tmp.file("tsa"))
    }

    override func tearDown() {
        tsa = nil
        tmp = nil
    }

    func testTheTimeStampOrTheExpiryIsPrintedAndTheVerdictsAgreeWithC2PAPython() throws {
        let photo = try TestJPEG.make(at: tmp.file("photo.jpg"))
        let stamped = try ReferenceSigner.sign(input: photo, output: tmp.file("stamped.jpg"), pki: pki, tsaURL: tsa.url)
        let unstamped = try ReferenceSigner.sign(input: photo, output: tmp.file("unstamped.jpg"), pki: pki)
        let damaged = try damagedToken(stamped)

        let today = try verify(stamped, tsaAnchor: true)
        XCTAssertTrue(today.contains("time-stamped 20"), today)
        XCTAssertTrue(today.contains(" by C=US, O=Lensd Test TSA, CN=Lensd Test TSA Signer"), today)
        XCTAssertTrue(try verify(unstamped, tsaAnchor: true).contains("not time-stamped: turns Invalid after 20"))
        // The TSA's root given as a signer root works too (c2pa-rs keeps one list), and
        // without it the stamp is not trusted.
        XCTAssertTrue(try verify(stamped, tsaAnchor: false, extraAnchors: [tsa.root]).contains("time-stamped 20"))
        XCTAssertTrue(try verify(stamped, tsaAnchor: false).contains("not time-stamped"))

        let cases: [(String, URL, Bool, String?, String)] = [
            ("stamped, today", stamped, true, nil, "Trusted"),
            ("stamped, expired signer", stamped, true, afterExpiry, "Trusted"),
            ("unstamped, expired signer", unstamped, true, afterExpiry, "Invalid"),
            ("untrusted TSA, expired signer", stamped, false, afterExpiry, "Invalid"),
            ("damaged token, today", damaged, true, nil, "Trusted"),
            ("damaged token, expired signer", damaged, true, afterExpiry, "Invalid"),
        ]
        for (name, file, trustTSA, clock, expected) in cases {
            let reference = try ReferenceValidator.verdict(file: file, anchors: [pki.root] + (trustTSA ? [tsa.root] : []),
                                                           clockOffset: clock)
            XCTAssertEqual(reference.validationState, expected, "c2pa-python, \(name): \(reference.failureCodes)")
            let ours = try verify(file, tsaAnchor: trustTSA, clock: clock)
            XCTAssertTrue(ours.hasPrefix("\(file.path): \(expected)"), "lensctl, \(name): \(ours)")
        }
    }

    /// `lensctl verify`'s text, with the device root, and the TSA's root as --tsa-trust-anchor.
    private func verify(_ file: URL, tsaAnchor: Bool, extraAnchors: [URL] = [], clock: String? = nil) throws -> String {
        var argv = [try LensctlRunner.binary, "verify", file.path, "--trust-anchor", pki.root.path]
        argv += extraAnchors.flatMap { ["--trust-anchor", $0.path] }
        if tsaAnchor { argv += ["--tsa-trust-anchor", tsa.root.path] }
        if let clock { argv = ["faketime", "-f", clock] + argv }
        // No trust anchors from the tester's own configuration: HOME is the test's directory.
        let result = try runProcess(argv, env: ["HOME": tmp.url.path, "LENSCTL_TRUST_ANCHORS": ""])
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// A byte changed inside the TSA's certificate in the token: the stamp no longer verifies.
    private func damagedToken(_ file: URL) throws -> URL {
        var bytes = Array(try Data(contentsOf: file))
        let marker = Array("Lensd Test TSA Signer".utf8)
        let at = try XCTUnwrap((0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        bytes[at + 3] ^= 0x01
        let url = tmp.file("damaged.jpg")
        try Data(bytes).write(to: url)
        return url
    }
}
