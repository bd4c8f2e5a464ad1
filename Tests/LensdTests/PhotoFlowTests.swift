import Foundation
import LensBus
import LensCrypto
import LensTestSupport
import XCTest

/// The photo flow end to end, as a member of group lens would see it.
final class PhotoFlowTests: LensdTestCase {
    func testMemberCapturesFetchesAndTheReferenceTrustsThePhoto() throws {
        let photo = outbox.appendingPathComponent("photo.jpg")
        let thumbnail = outbox.appendingPathComponent("thumbnail.jpg")
        let member = try peer(["open", "start", "capture", "wait:InitialCaptureFinished", "thumbnail:\(thumbnail.path)",
                               "wait:PhotoSigned", "fetch:\(photo.path)"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        let name = try XCTUnwrap(member.lines.first { $0.hasPrefix("reply capture ") }?.split(separator: " ").last)
        let signed = try XCTUnwrap(member.lines.first { $0.hasPrefix("signal PhotoSigned \(name)") })
        XCTAssertTrue(member.lines.contains { $0.hasPrefix("signal InitialCaptureFinished \(name) bytes:") })

        // The fetched bytes are exactly what PhotoSigned announced.
        let bytes = Array(try Data(contentsOf: photo))
        XCTAssertTrue(signed.contains("sha256=\(Digest.hash(bytes).map { String(format: "%02x", $0) }.joined())"), signed)
        XCTAssertTrue(signed.contains("size=uint64(\(bytes.count))"), signed)
        XCTAssertTrue(signed.contains("mime=image/jpeg"), signed)

        // The thumbnail is a JPEG no larger than 320 px.
        let (width, height) = try jpegDimensions(Array(try Data(contentsOf: thumbnail)))
        XCTAssertLessThanOrEqual(max(width, height), 320)

        // c2pa-rs rates it Trusted with the daemon's own trust anchor, and it says what made it.
        let anchor = try client().trustAnchorFile(in: tmp)
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [anchor])
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Model"]?.string, "lensd synthetic camera")
        XCTAssertEqual(verdict.actions.first?.digitalSourceType,
                       "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia")
        XCTAssertTrue(temporaryFiles().isEmpty, "\(temporaryFiles())")
    }

    /// A service stop right after BeginCapture still stores the photo and announces it.
    func testAServiceStopFinishesThePhotoUnderWay() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let name = try XCTUnwrap(try c.call(session, "BeginCapture").first?.stringValue)
        kill(daemon.pid, SIGTERM)
        let signed = try c.waitForSignal("PhotoSigned", path: session, timeout: 30)
        XCTAssertEqual(signed.arguments.first?.stringValue, name)
        daemon.process?.waitUntilExit()
        XCTAssertEqual(daemon.process?.terminationStatus, 0, daemon.log)
        XCTAssertTrue(storedPhotos().contains { $0.lastPathComponent == "\(name).jpg" })
    }
}
