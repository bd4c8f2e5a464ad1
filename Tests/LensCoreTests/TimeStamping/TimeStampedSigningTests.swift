import C2PA
import Foundation
import LensCamera
import LensCore
import LensCrypto
import LensNetwork
import LensTestSupport
import XCTest

/// Photos and videos time-stamped at signing by a real RFC 3161 responder (OpenSSL's `ts -reply`
/// behind Tests/oracle/local_tsa.py); c2pa-python and lensd's verifier judge, also two years on.
final class TimeStampedSigningTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var pki: TestPKI!
    private var tsa: LocalTSA!
    private var photo: CapturedPhoto!
    /// Two years on, the device certificate (365 days) has long expired.
    private let twoYearsLater = "+730d"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "lensd-tsa")
        pki = try TestPKI.make(in: directory.file("pki"))
        tsa = try LocalTSA(directory: directory.file("tsa"))
        let jpeg = Array(try Data(contentsOf: try TestJPEG.make(at: directory.file("frame.jpg"))))
        photo = CapturedPhoto(jpeg: jpeg, thumbnail: [], width: 640, height: 480, captureTime: Date(), make: "lensd",
                              model: "test camera", isSynthetic: true, digitalZoomRatio: nil, frameNumber: 1)
    }

    override func tearDown() {
        tsa = nil
        directory = nil
    }

    func testAStampedPhotoStaysTrustedAfterTheDeviceCertificateExpiresAndAnUnstampedOneDoesNot() throws {
        let stamped = try signing(.whenOnline).sign(photo, location: nil)
        guard case .stamped(let genTime)? = stamped.timeStamp else { return XCTFail("not stamped: \(String(describing: stamped.timeStamp))") }
        XCTAssertEqual(genTime.timeIntervalSinceNow, 0, accuracy: 60)
        let unstamped = try signing(nil).sign(photo, location: nil)
        XCTAssertNil(unstamped.timeStamp)
        let stampedFile = try write(stamped.jpeg, "stamped.jpg"), unstampedFile = try write(unstamped.jpeg, "unstamped.jpg")

        let today = try ReferenceValidator.assertTrusted(stampedFile, anchors: anchors)
        XCTAssertTrue(today.success.contains("timeStamp.trusted"), "\(today.success)")
        let later = try ReferenceValidator.verdict(file: stampedFile, anchors: anchors, clockOffset: twoYearsLater)
        XCTAssertEqual(later.validationState, "Trusted", "\(later.failureCodes)")
        let unstampedLater = try ReferenceValidator.verdict(file: unstampedFile, anchors: anchors, clockOffset: twoYearsLater)
        XCTAssertEqual(unstampedLater.validationState, "Invalid")
        XCTAssertTrue(unstampedLater.failureCodes.contains("signingCredential.expired"), "\(unstampedLater.failureCodes)")

        // lensd's own verifier, its clock moved the same way.
        let future = Date().addingTimeInterval(730 * 86_400)
        let ours = try verifier(at: future).verify(jpeg: stamped.jpeg)
        XCTAssertEqual(ours.state, .trusted)
        XCTAssertEqual(ours.signer?.timeStamp?.timeIntervalSince1970 ?? 0, genTime.timeIntervalSince1970, accuracy: 1)
        XCTAssertEqual(try verifier(at: future).verify(jpeg: unstamped.jpeg).state, .invalid)
    }

    func testAStampedVideoStaysTrustedTwoYearsOn() throws {
        let path = directory.file("clip.mp4").path
        let finished = try MP4TestMedia.writeMJPEGJournal(at: path).writer.finish()
        let key = try String(contentsOf: pki.key, encoding: .utf8), chain = try String(contentsOf: pki.chain, encoding: .utf8)
        let video = VideoSigning(signer: try KeySigner(keyPEM: key, chainPEM: chain), generator: ClaimGeneratorInfo(name: "lensd-tests", version: "0"),
                                 timeStamping: try timeStamping(.required))
        let facts = VideoSigning.Facts(startTime: Date(), make: "lensd", model: "test muxer", isSynthetic: true, digitalZoomRatio: nil)
        guard case .stamped? = try video.sign(finished, facts: facts, location: nil) else { return XCTFail("not stamped") }
        let url = URL(fileURLWithPath: path)
        XCTAssertTrue(try ReferenceValidator.assertTrusted(url, anchors: anchors).success.contains("timeStamp.trusted"))
        XCTAssertEqual(try ReferenceValidator.verdict(file: url, anchors: anchors, clockOffset: twoYearsLater).validationState, "Trusted")
        XCTAssertEqual(try verifier(at: Date().addingTimeInterval(730 * 86_400)).verify(mp4Path: path).state, .trusted)
    }

    /// The TSAs are tried in order: one that is down does not cost the stamp.
    func testTheNextTSAIsAskedWhenTheFirstDoesNotAnswer() throws {
        let down = try LocalTSA(directory: directory.file("down"))
        down.stop()
        var timeStamping = try timeStamping(.required)
        timeStamping.client.urls = [down.url, tsa.url]
        let signed = try PhotoSigning(signer: try signer(), generator: generator, timeStamping: timeStamping).sign(photo, location: nil)
        guard case .stamped? = signed.timeStamp else { return XCTFail("not stamped: \(String(describing: signed.timeStamp))") }
    }

    /// Every hostile or failed answer is refused with its reason: `required` fails the signing,
    /// `when-online` signs without a token (and the file says so to both verifiers).
    func testHostileAnswersAreRefusedWithTheirReason() throws {
        let expired = try LocalTSA(directory: directory.file("expired"), expired: true)
        let cases: [(String, () throws -> Void, String)] = [
            ("truncated", { try self.tsa.set(.truncate) }, "parse time-stamp response"),
            ("wrong imprint", { try self.tsa.set(.wrongImprint) }, "message imprint differs"),
            ("wrong nonce", { try self.tsa.set(.wrongNonce) }, "nonce"),
            ("HTTP error", { try self.tsa.set(.error) }, "HTTP 500"),
            ("too slow", { try self.tsa.delay(3) }, "imed out"),
        ]
        for (name, arrange, reason) in cases {
            try arrange()
            try assertRefused(name, reason: reason)
        }
        try tsa.set(.ok)
        try assertRefused("expired TSA certificate", reason: "certificate has expired", urls: [expired.url],
                          anchors: [try rootCertificate(expired.root)])
        try assertRefused("untrusted TSA", reason: "not trusted", anchors: [try rootCertificate(pki.root)])
    }

    // MARK: Helpers

    private func assertRefused(_ name: String, reason: String, urls: [String]? = nil, anchors: [Certificate]? = nil) throws {
        var required = try timeStamping(.required)
        if let urls { required.client.urls = urls }
        if let anchors { required.client.anchors = anchors }
        XCTAssertThrowsError(try PhotoSigning(signer: try signer(), generator: generator, timeStamping: required).sign(photo, location: nil),
                             name) { error in
            XCTAssertTrue(error is TimeStamping.Unavailable, "\(name): \(error)")
            XCTAssertTrue("\(error)".contains(reason), "\(name): \(error)")
        }
        var whenOnline = required
        whenOnline.policy = .whenOnline
        let signed = try PhotoSigning(signer: try signer(), generator: generator, timeStamping: whenOnline).sign(photo, location: nil)
        guard case .unstamped(let why)? = signed.timeStamp else { return XCTFail("\(name): \(String(describing: signed.timeStamp))") }
        XCTAssertTrue(why.contains(reason), "\(name): \(why)")
        let report = try verifier(at: Date()).verify(jpeg: signed.jpeg)
        XCTAssertEqual(report.state, .trusted, name)
        XCTAssertNil(report.signer?.timeStamp, name)
        XCTAssertFalse(report.statuses.contains { $0.code.hasPrefix("timeStamp.") }, "\(name): a token was stored")
    }

    private var anchors: [URL] { [pki.root, tsa.root] }
    private let generator = ClaimGeneratorInfo(name: "lensd-tests", version: "0")

    private func rootCertificate(_ url: URL) throws -> Certificate {
        try Certificate.parsePEM(try String(contentsOf: url, encoding: .utf8))[0]
    }

    private func timeStamping(_ policy: TimeStampPolicy) throws -> TimeStamping {
        TimeStamping(client: TSAClient(urls: [tsa.url], anchors: [try rootCertificate(tsa.root)], timeout: .seconds(1)),
                     policy: policy)
    }

    private func signer() throws -> KeySigner {
        try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8), chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
    }

    private func signing(_ policy: TimeStampPolicy?) throws -> PhotoSigning {
        PhotoSigning(signer: try signer(), generator: generator, timeStamping: try policy.map(timeStamping))
    }

    private func verifier(at now: Date) throws -> Verifier {
        Verifier(trustAnchors: try anchors.map(rootCertificate), now: now)
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = directory.file(name)
        try Data(bytes).write(to: url)
        return url
    }
}
