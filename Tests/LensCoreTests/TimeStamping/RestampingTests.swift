import C2PA
import Foundation
import LensCore
import LensCrypto
import LensNetwork
import LensStorage
import LensTestSupport
import XCTest

/// A photo and a video signed while no TSA answered are time-stamped later by an update manifest
/// (`c2pa.ingredient.v3` parentOf + `c2pa.time-stamp`), replacing the stored file: c2pa-python
/// accepts it today and two years on, when the unstamped original has turned Invalid.
final class RestampingTests: RestampTestCase {

    func testAnOfflinePhotoIsTimeStampedLaterAndOutlivesItsCertificate() throws {
        let signed = try offlinePhoto()
        let original = try store.store(parts: [signed], name: "11111111-2222-4333-8444-555555555555", uid: 1000,
                                       mime: "image/jpeg", fileExtension: "jpg")
        try assertRestamped(original)
    }

    func testAnOfflineVideoIsTimeStampedLaterInItsReserve() throws {
        let path = directory.file("clip.mp4").path
        let finished = try MP4TestMedia.writeMJPEGJournal(at: path).writer.finish()
        let facts = VideoSigning.Facts(startTime: Date(), make: "lensd", model: "test muxer", isSynthetic: true, digitalZoomRatio: nil)
        try VideoSigning(signer: try signer(), generator: generator).sign(finished, facts: facts, location: nil)
        let original = try store.store(parts: [Array(try Data(contentsOf: URL(fileURLWithPath: path)))],
                                       name: "21111111-2222-4333-8444-555555555555", uid: 1000, mime: "video/mp4", fileExtension: "mp4")
        let updated = try assertRestamped(original)
        XCTAssertEqual(updated.size, original.size, "the update fits the padding: no sample moves")
    }

    /// Asked again (a crash before its queue record went), a re-stamped result is left as it is.
    func testAResultIsNeverStampedTwice() throws {
        let signed = try offlinePhoto()
        let original = try store.store(parts: [signed], name: "31111111-2222-4333-8444-555555555555", uid: 1000,
                                       mime: "image/jpeg", fileExtension: "jpg")
        let first = try assertRestamped(original)
        let again = try restamping().restamp(original.name, uid: 1000, in: store)
        XCTAssertEqual(again.result.sha256, first.sha256)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: again.result.path))).count, first.size)
    }

    /// The update's token is over the parent COSE_Sign1's `signature` field, as c2pa-rs stamps
    /// (TimeStamp::refresh_timestamp) and reads it: `openssl ts -verify` accepts it over those
    /// bytes with the TSA's root, and refuses it over the whole COSE_Sign1 (what lensd stamped before).
    func testTheUpdatesTokenIsOverTheParentsSignatureBytes() throws {
        let original = try store.store(parts: [try offlinePhoto()], name: "41111111-2222-4333-8444-555555555555", uid: 1000,
                                       mime: "image/jpeg", fileExtension: "jpg")
        let (updated, _) = try restamping().restamp(original.name, uid: 1000, in: store)
        var jumbf: [UInt8] = []
        _ = try StoreSplice.replacingStore(ofFileAt: updated.path) { jumbf = $0; return $0 }
        let manifests = try ManifestStore(jumbf: jumbf)
        let (parent, update) = (try XCTUnwrap(manifests.manifests.first), try XCTUnwrap(manifests.activeManifest))
        XCTAssertTrue(update.isUpdate)
        let assertion = try XCTUnwrap(update.assertions.first { Labels.base($0.label ?? "") == Labels.timeStamp }?.content("cbor"))
        let token = try XCTUnwrap(try CBORDecoder.decode(assertion)[.text(parent.label)]?.bytesValue)
        let coseBytes = try XCTUnwrap(parent.signatureBox?.content("cbor"))
        let files = (token: directory.file("token.der"), signature: directory.file("signature.bin"), cose: directory.file("cose.bin"))
        try Data(token).write(to: files.token)
        try Data(try COSESign1(encoded: coseBytes).signature).write(to: files.signature)
        try Data(coseBytes).write(to: files.cose)
        func opensslVerifies(_ data: URL) throws -> Bool {
            try runProcess(["openssl", "ts", "-verify", "-token_in", "-in", files.token.path, "-data", data.path,
                            "-CAfile", tsa.root.path]).status == 0
        }
        XCTAssertTrue(try opensslVerifies(files.signature))
        XCTAssertFalse(try opensslVerifies(files.cose))
    }

    /// The controls: the same update without its `c2pa.time-stamp` assertion, or with a token over
    /// other bytes, does not keep the expired original valid — a good token is what does.
    /// c2pa-python and lensd's verifier agree on each (neither fails the bad token today).
    func testWithoutAGoodTimeStampAssertionTheUpdateDoesNotHelp() throws {
        let stamper = SigningTimeStamper(client: try restamping().client, required: true, signerValidity: .distantPast ... .distantFuture)
        let without = try update(named: "without-time-stamp.jpg") { _ in [] }
        XCTAssertEqual(try agreedState(without), "Trusted")
        XCTAssertEqual(try agreedState(without, clock: "+730d"), "Invalid")

        let otherBytes = try update(named: "token-over-other-bytes.jpg") { parent in
            [TimeStampAssertion(tokens: [(parent.label, try XCTUnwrap(try stamper.timeStamp(Array("other bytes".utf8))))])]
        }
        XCTAssertEqual(try agreedState(otherBytes), "Trusted")
        XCTAssertEqual(try agreedState(otherBytes, clock: "+730d"), "Invalid")
        // lensctl verify reports the token it did not accept (c2pa-python ignores it silently).
        let roots = try [pki.root, tsa.root].map { try Certificate.parsePEM(try String(contentsOf: $0, encoding: .utf8))[0] }
        let report = try Verifier(trustAnchors: roots).verify(fileAt: otherBytes.path)
        XCTAssertTrue(report.statuses.contains { $0.kind == .informational && $0.code == "timeStamp.mismatch"
            && $0.explanation.contains("COSE_Sign1 signature") }, "\(report.statuses.map(\.code))")
    }

    /// An offline photo with an update manifest of its parent ingredient and `extra` assertions.
    private func update(named name: String, _ extra: (Manifest) throws -> [any Assertion]) throws -> URL {
        let signed = try offlinePhoto()
        let path = directory.file("original-\(name)").path
        try Data(signed).write(to: URL(fileURLWithPath: path))
        let stamper = SigningTimeStamper(client: try restamping().client, required: true, signerValidity: .distantPast ... .distantFuture)
        let splice = try StoreSplice.replacingStore(ofFileAt: path) { existing in
            let parent = try XCTUnwrap(try ManifestStore(jumbf: existing).activeManifest)
            let assertions = [ParentIngredientAssertion(manifest: parent, format: "image/jpeg", validation: [])] + (try extra(parent))
            return try ManifestWriter.update(generator: generator, assertions: assertions, signer: try signer(), timeStamper: stamper)
                .signedUpdate(after: existing)
        }
        let file = directory.file(name)
        try Data(Array(signed[..<splice.range.lowerBound]) + splice.bytes + Array(signed[splice.range.upperBound...])).write(to: file)
        return file
    }

    /// c2pa-python's state, once lensd's verifier (its clock moved alike) has reached the same.
    private func agreedState(_ file: URL, clock: String? = nil, line: UInt = #line) throws -> String? {
        let reference = try ReferenceValidator.verdict(file: file, anchors: [pki.root, tsa.root], clockOffset: clock)
        let days = clock.flatMap { Double($0.dropFirst().dropLast()) } ?? 0
        let now = Date().addingTimeInterval(days * 86_400)
        let roots = try [pki.root, tsa.root].map { try Certificate.parsePEM(try String(contentsOf: $0, encoding: .utf8))[0] }
        let ours = try Verifier(trustAnchors: roots, now: now).verify(fileAt: file.path)
        XCTAssertEqual(ours.state.rawValue, reference.validationState, "\(file.lastPathComponent) \(clock ?? ""): "
            + "lensd \(ours.failures.map(\.code)) \(ours.ingredientFailures.map(\.code)), c2pa-python \(reference.failureCodes) "
            + "\(reference.ingredientFailures)", line: line)
        return reference.validationState
    }

    @discardableResult
    private func assertRestamped(_ original: StoredResult, line: UInt = #line) throws -> StoredResult {
        let anchors = [pki.root, tsa.root]
        let before = Array(try Data(contentsOf: URL(fileURLWithPath: original.path)))
        XCTAssertEqual(try ReferenceValidator.verdict(file: URL(fileURLWithPath: original.path), anchors: anchors,
                                                      clockOffset: "+730d").validationState, "Invalid", line: line)
        let (updated, time) = try restamping().restamp(original.name, uid: 1000, in: store)
        XCTAssertEqual(time.timeIntervalSinceNow, 0, accuracy: 60, line: line)
        let after = Array(try Data(contentsOf: URL(fileURLWithPath: updated.path)))
        XCTAssertNotEqual(after, before, line: line)
        XCTAssertEqual(updated.sha256, Digest.hash(after).map { String(format: "%02x", $0) }.joined(), line: line)
        XCTAssertEqual(updated.size, after.count, line: line)
        let file = URL(fileURLWithPath: updated.path)
        let today = try ReferenceValidator.verdict(file: file, anchors: anchors)
        XCTAssertEqual(today.validationState, "Trusted", "\(today.failure) \(today.ingredientFailures) \(today.error ?? "")", line: line)
        XCTAssertEqual(today.ingredientFailures, [], line: line)
        XCTAssertTrue(today.claimAssertions.contains { $0.contains("c2pa.time-stamp") }, "\(today.claimAssertions)", line: line)
        try ConformanceRubric.assertConformant(file, anchors: anchors, capturedMedia: false, line: line)
        // 800 days on the original's certificate has expired: the update's own signature is
        // trusted at its sigTst2 time, and the parent's signature — validity and chain trust — at
        // the time-stamp assertion's time (its token over the parent's signature bytes), so the
        // file is still Trusted.
        let later = try ReferenceValidator.verdict(file: file, anchors: anchors, clockOffset: "+800d")
        XCTAssertEqual(later.validationState, "Trusted", "\(later.failure) \(later.ingredientFailures)", line: line)
        XCTAssertEqual(later.failure, [], line: line)
        XCTAssertTrue(later.success.contains("signingCredential.trusted"), "\(later.success)", line: line)
        XCTAssertEqual(later.ingredientFailures, [], line: line)
        XCTAssertEqual(try agreedState(file, line: line), "Trusted", line: line)
        XCTAssertEqual(try agreedState(file, clock: "+800d", line: line), "Trusted", line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.file("results/1000").path)
            .filter { $0.hasPrefix(".tmp-") }, [], line: line)
        return updated
    }
}
