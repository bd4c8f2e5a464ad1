import LensTestSupport
@testable import C2PA
@testable import C2PAEncoding
import Foundation
import LensCrypto
import XCTest

/// Trust lists in the official C2PA Trust List's form (ETSI TS 119 602 LoTE JSON, written by hand
/// in TestTrustList; or a PEM bundle): a signer chaining to a listed CA is Trusted and the report
/// names the entity and the list; a CA withdrawn since before the signing time (the trusted
/// time-stamp's, else now) does not make it Trusted; one withdrawn later still does.
final class TrustListTests: XCTestCase {
    var tmp: TemporaryDirectory!
    var pki: TestPKI!
    var signed: URL!
    var rootPEM: String!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
        signed = tmp.file("signed.jpg")
        try LensdSigning.sign(try TestJPEG.make(at: tmp.file("in.jpg")), into: signed, pki: pki)
        rootPEM = try String(contentsOf: pki.root, encoding: .utf8)
    }

    override func tearDown() { tmp = nil }

    func testListedCATrustsItsSignersAndIsNamed() throws {
        let list = try lote(TestTrustList.lote(certificatePEM: rootPEM))
        XCTAssertEqual(list.name, "Lensd Test Trust List")
        XCTAssertEqual(list.entities.map(\.name), ["Lensd Test CA Operator"], "the English TEName")
        let report = try verify(lists: [list])
        XCTAssertEqual(report.state, .trusted)
        XCTAssertEqual(report.signer?.trustListing,
                       TrustListing(list: "Lensd Test Trust List", entity: "Lensd Test CA Operator", service: "Lensd Test CA Operator Issuing CA",
                                    status: "trusted", since: list.entities[0].services[0].statuses[0].since))
        // A list of someone else's CA trusts nobody here, and names no one.
        let other = try lote(TestTrustList.lote(certificatePEM: try String(contentsOf: pki.other, encoding: .utf8)))
        let untrusted = try verify(lists: [other])
        XCTAssertEqual(untrusted.state, .valid)
        XCTAssertNil(untrusted.signer?.trustListing)
    }

    func testWithdrawnBeforeTheSigningTimeIsNotTrusted() throws {
        let added = Date(timeIntervalSinceNow: -30 * 86_400)
        func listing(withdrawn: Date) throws -> TrustList {
            try lote(TestTrustList.lote(certificatePEM: rootPEM, statuses: [.init(trusted: true, since: added),
                                                                              .init(trusted: false, since: withdrawn)]))
        }
        let withdrawnYesterday = try verify(lists: [listing(withdrawn: Date(timeIntervalSinceNow: -86_400))])
        XCTAssertEqual(withdrawnYesterday.state, .valid)
        XCTAssertEqual(withdrawnYesterday.signer?.trustListing?.status, "untrusted")
        XCTAssertTrue(withdrawnYesterday.failures.contains {
            $0.code == StatusCode.signingCredentialUntrusted && $0.explanation.contains("Lensd Test CA Operator is untrusted on Lensd Test Trust List")
        }, "\(withdrawnYesterday.failures)")
        // Withdrawn tomorrow: trusted today, not the day after (an unstamped file is judged now).
        let tomorrow = try listing(withdrawn: Date(timeIntervalSinceNow: 86_400))
        XCTAssertEqual(try verify(lists: [tomorrow]).state, .trusted)
        XCTAssertEqual(try verify(lists: [tomorrow], now: Date(timeIntervalSinceNow: 2 * 86_400)).state, .valid)
    }

    /// A trusted time-stamp fixes the signing time: a CA withdrawn after it still vouches for the file.
    func testTheTimeStampFixesTheSigningTime() throws {
        let tsa = try LocalTSA(directory: tmp.file("tsa"))
        let stamped = try ReferenceSigner.sign(input: try TestJPEG.make(at: tmp.file("vga.jpg")), output: tmp.file("stamped.jpg"),
                                               pki: pki, tsaURL: tsa.url)
        let list = try lote(TestTrustList.lote(certificatePEM: rootPEM, statuses: [
            .init(trusted: true, since: Date(timeIntervalSinceNow: -86_400)), .init(trusted: false, since: Date(timeIntervalSinceNow: 3600)),
        ]))
        let tsaList = try lote(TestTrustList.lote(name: "Lensd Test TSA List", entity: "Lensd Test TSA",
                                                  certificatePEM: try String(contentsOf: tsa.root, encoding: .utf8)))
        let later = Date(timeIntervalSinceNow: 2 * 3600)
        let policy = TrustPolicy(lists: [list], timeStampLists: [tsaList])
        let report = try Verifier(trust: policy, now: later).verify(fileAt: stamped.path)
        XCTAssertNotNil(report.signer?.timeStamp)
        XCTAssertEqual(report.state, .trusted, "\(report.failures)")
        XCTAssertEqual(report.signer?.trustListing?.status, "trusted")
        // Without the TSA's list the stamp is not trusted, so "now" is the signing time: withdrawn.
        XCTAssertEqual(try Verifier(trust: TrustPolicy(lists: [list]), now: later).verify(fileAt: stamped.path).state, .valid)
    }

    func testPEMBundleAndStaleness() throws {
        let bundle = "Subject\tCN=lensd test root\n" + rootPEM
        let list = try TrustList(contents: Array(bundle.utf8), source: "/etc/lists/C2PA-TRUST-LIST.pem")
        XCTAssertEqual(list.name, "C2PA-TRUST-LIST.pem")
        XCTAssertEqual(try verify(lists: [list]).state, .trusted)
        let stale = try lote(TestTrustList.lote(certificatePEM: rootPEM, nextUpdate: Date(timeIntervalSinceNow: -3600)))
        XCTAssertTrue(stale.isStale(at: Date()))
        XCTAssertFalse(try lote(TestTrustList.lote(certificatePEM: rootPEM)).isStale(at: Date()))
        XCTAssertEqual(try verify(lists: [stale]).state, .trusted, "a stale list is still used")
    }

    func testMalformedListsNameTheField() throws {
        let good = TestTrustList.lote(certificatePEM: rootPEM)
        let cases: [(String, String)] = [
            ("{\"LoTE\": {}}", "ListAndSchemeInformation"),
            (good.replacingOccurrences(of: "\"NextUpdate\": \"", with: "\"NextUpdate\": \"soon "), "NextUpdate"),
            (good.replacingOccurrences(of: "{\"val\": \"", with: "{\"val\": \"AAAA"), "X509Certificates[0]"),
            (good.replacingOccurrences(of: "\"TEName\"", with: "\"TENames\""), "TEName"),
            ("{\"LoTE\": [1, 2", "not JSON"),
            ("no certificate here", "no PEM certificate"),
        ]
        for (text, field) in cases {
            XCTAssertThrowsError(try TrustList(contents: Array(text.utf8), source: "list.json")) { error in
                XCTAssertTrue("\(error)".contains(field), "\(error)")
            }
        }
    }

    private func lote(_ text: String) throws -> TrustList {
        try TrustList(contents: Array(text.utf8), source: "test-list.json")
    }

    private func verify(lists: [TrustList], now: Date = Date()) throws -> VerificationReport {
        try Verifier(trust: TrustPolicy(lists: lists), now: now).verify(fileAt: signed.path)
    }
}
