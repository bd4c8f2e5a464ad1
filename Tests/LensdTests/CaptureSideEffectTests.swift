import Foundation
import LensCrypto
import LensTestSupport
import XCTest

/// Per-capture flags change that capture only, and a failed camera selection changes nothing:
/// the next client finds the shared camera as it was.
final class CaptureSideEffectTests: LensdTestCase {
    private var status: String { get throws { try lensctl.expect(0, ["status"]).stdout } }

    func testPerCaptureFlagsAreRestoredAfterThePhoto() throws {
        let before = try status
        XCTAssertTrue(before.contains("Camera: back: lensd synthetic camera (synthetic:back), flash off, zoom 1.0× of 8.0×"), before)
        let photo = outbox.appendingPathComponent("zoomed.jpg")
        try lensctl.expect(0, ["capture", "--camera", "front", "--zoom", "5", "--flash", "on", "-o", photo.path], as: TestUsers.member)
        // The photo had them …
        let verdict = try ReferenceValidator.verdict(file: photo)
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["exif:DigitalZoomRatio"]?.string, "500/100")
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Model"]?.string, "lensd synthetic camera")
        // … and afterwards the back camera is current again, and the front one has its own settings back.
        XCTAssertEqual(try status, before)
        XCTAssertEqual(try lensctl.expect(0, ["set", "camera", "front"]).stdout, "camera: front: lensd synthetic camera (synthetic:front)\n")
        XCTAssertTrue(try status.contains("Camera: front: lensd synthetic camera (synthetic:front), flash off, zoom 1.0× of 8.0×"))
        XCTAssertTrue(try lensctl.expect(0, ["capture", "--help"]).stdout.contains("apply to this photo only"))
    }

    func testAFailedCameraSelectionKeepsTheCurrentCamera() throws {
        try lensctl.expect(0, ["set", "camera", "front"])
        let before = try status
        let photo = outbox.appendingPathComponent("none.jpg")
        let capture = try lensctl.expect(1, ["capture", "--camera", "external", "-o", photo.path], as: TestUsers.member)
        XCTAssertEqual(capture.stderr, "lensctl: lensd has no camera external (see lensctl devices); "
                       + "the camera is still front (synthetic:front)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: photo.path))
        XCTAssertEqual(try status, before)
        let set = try lensctl.expect(1, ["set", "camera", "/dev/video0"])
        XCTAssertTrue(set.stderr.contains("the camera is still front (synthetic:front)"), set.stderr)
        XCTAssertEqual(try status, before)
    }

    /// --thumbnail writes InitialCaptureFinished's JPEG; `when` is UTC with Z, as documented.
    func testThumbnailAndCaptureTimeInUTC() throws {
        let photo = outbox.appendingPathComponent("p.jpg")
        let thumbnails = outbox.appendingPathComponent("thumbs")
        try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        let r = try lensctl.expect(0, ["capture", "-o", photo.path, "--thumbnail", thumbnails.path, "--json"], as: TestUsers.member)
        try JSONSchemaCheck.assertValid(r.stdout, schema: "capture")
        let printed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let name = try XCTUnwrap(printed["name"] as? String)
        let thumbnail = thumbnails.appendingPathComponent("\(name).thumbnail.jpg")
        XCTAssertEqual(printed["thumbnail"] as? String, thumbnail.path)
        let thumb = try Data(contentsOf: thumbnail)
        XCTAssertEqual(Array(thumb.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG")
        XCTAssertLessThan(thumb.count, try Data(contentsOf: photo).count)
        let when = try XCTUnwrap(printed["when"] as? String)
        XCTAssertTrue(when.hasSuffix("Z"), when)
        let taken = try XCTUnwrap(ISO8601DateFormatter().date(from: when))
        XCTAssertLessThan(abs(taken.timeIntervalSinceNow), 120)
        let text = try lensctl.expect(0, ["capture", "-o", outbox.path]).stdout
        XCTAssertNotNil(text.range(of: #"when:     \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n"#, options: .regularExpression), text)
        try lensctl.expect(2, ["capture", "--thumbnail", "-", "-o", outbox.path])
        // watch's clock is UTC too.
        let watched = try lensctl.expect(0, ["watch", "--count", "0"]).stdout
        XCTAssertNotNil(watched.range(of: #"^\d\d:\d\d:\d\d\.\d{3}Z Status "#, options: .regularExpression), watched)
    }

    /// trust-anchor --chain: the certificates the manifests carry, leaf first, which lead to
    /// the trust anchor (checked by openssl, not by lensd's own code).
    func testTheCertificateChainLeadsToTheTrustAnchor() throws {
        let chainText = try lensctl.expect(0, ["trust-anchor", "--chain"], as: TestUsers.member).stdout
        let anchorText = try lensctl.expect(0, ["trust-anchor"]).stdout
        let chain = try Certificate.parsePEM(chainText)
        let anchor = try XCTUnwrap(try Certificate.parsePEM(anchorText).first)
        XCTAssertFalse(chain.isEmpty)
        XCTAssertFalse(chain.contains { $0.pem == anchor.pem }, "the root is not part of the chain")
        let files = (leaf: tmp.file("leaf.pem"), rest: tmp.file("intermediates.pem"), anchor: tmp.file("anchor.pem"))
        try chain[0].pem.write(to: files.leaf, atomically: true, encoding: .utf8)
        try chain.dropFirst().map(\.pem).joined().write(to: files.rest, atomically: true, encoding: .utf8)
        try anchorText.write(to: files.anchor, atomically: true, encoding: .utf8)
        let untrusted = chain.count > 1 ? ["-untrusted", files.rest.path] : []
        let verified = try runProcess(["openssl", "verify", "-CAfile", files.anchor.path] + untrusted + [files.leaf.path])
        XCTAssertEqual(verified.status, 0, String(decoding: verified.stdout + verified.stderr, as: UTF8.self))
        // The signer of a photo is the chain's leaf.
        let photo = outbox.appendingPathComponent("signed.jpg")
        let captured = try lensctl.expect(0, ["capture", "-o", photo.path, "--json"])
        let signer = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(captured.stdout.utf8)) as? [String: Any])?["signer"] as? String)
        XCTAssertEqual(signer, chain[0].subject.oneLine)
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["trust-anchor", "--chain", "--json"]).stdout, schema: "trust-anchor")
    }

    /// verify trusts, besides --trust-anchor, the files in LENSCTL_TRUST_ANCHORS and
    /// ~/.config/lensctl/trust-anchors.pem, as c2patool users expect.
    func testVerifyReadsTrustAnchorsFromTheEnvironmentAndTheConfigFile() throws {
        let photo = outbox.appendingPathComponent("v.jpg")
        try lensctl.expect(0, ["capture", "-o", photo.path])
        let anchor = tmp.file("anchor.pem")
        try lensctl.expect(0, ["trust-anchor"]).stdout.write(to: anchor, atomically: true, encoding: .utf8)
        let home = tmp.file("home")
        let verify = [try LensctlRunner.binary, "verify", "--require-trusted", photo.path]
        // An empty XDG_CONFIG_HOME counts as unset, whatever the test runner's is.
        func run(_ env: [String: String]) throws -> Int32 {
            try runProcess(verify, env: ["HOME": home.path, "XDG_CONFIG_HOME": ""].merging(env) { $1 }).status
        }

        XCTAssertEqual(try run([:]), 1, "nothing trusted yet")
        XCTAssertEqual(try run([TrustAnchorName.variable: "/nonexistent.pem:\(anchor.path)"]), 7, "a listed file that cannot be read")
        XCTAssertEqual(try run([TrustAnchorName.variable: "::\(anchor.path):"]), 0, "empty entries are skipped")
        let config = home.appendingPathComponent(".config/lensctl")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: anchor, to: config.appendingPathComponent("trust-anchors.pem"))
        XCTAssertEqual(try run([:]), 0)
        XCTAssertEqual(try run(["XDG_CONFIG_HOME": tmp.file("elsewhere").path]), 1, "XDG_CONFIG_HOME moves the file")
    }
}

private enum TrustAnchorName {
    static let variable = "LENSCTL_TRUST_ANCHORS"
}
