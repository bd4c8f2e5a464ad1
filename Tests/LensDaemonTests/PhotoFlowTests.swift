import Foundation
import LensBus
import LensCore
@testable import LensDaemon
import LensImaging
import LensTestSupport
import XCTest

/// The photo flow in process, as a member of group lens would see it: BeginCapture, the
/// thumbnail, PhotoSigned, FetchResult, and c2pa-python's verdict on the file.
final class PhotoFlowTests: DaemonTestCase {
    func testMemberCapturesFetchesAndTheReferenceTrustsThePhoto() throws {
        try TestUsers.ensure()
        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        let session = try member.claimedSession()
        let name = try XCTUnwrap(member.call(session, "BeginCapture").first?.stringValue)
        let initial = try member.waitForSignal("InitialCaptureFinished", path: session)
        XCTAssertEqual(initial.arguments.first?.stringValue, name)
        let thumbnail = try XCTUnwrap(initial.arguments.last?.bytesValue)
        let signed = try member.waitForSignal("PhotoSigned", path: session)
        XCTAssertEqual(signed.arguments.first?.stringValue, name)
        let info = try XCTUnwrap(signed.arguments.last?.vardictValue)
        let fetched = try XCTUnwrap(member.call(session, "FetchResult", [.string(name)]).first?.fdValue)
        let photo = lensd.tmp.file("photo.jpg")
        try FileHandle(fileDescriptor: fetched, closeOnDealloc: true).readToEnd()?.write(to: photo)

        // The fetched bytes are exactly what PhotoSigned announced (sha256sum's digest, not lensd's).
        let digest = try runProcess(["sha256sum", photo.path])
        XCTAssertEqual(info["sha256"]?.stringValue, String(decoding: digest.stdout, as: UTF8.self).split(separator: " ").first.map(String.init))
        XCTAssertEqual(info["size"]?.uint64Value, UInt64(try Data(contentsOf: photo).count))
        XCTAssertEqual(info["mime"]?.stringValue, "image/jpeg")

        // The thumbnail is a JPEG no larger than 320 px.
        let decoded = try JPEGCodec.decodeRGB(thumbnail)
        XCTAssertLessThanOrEqual(max(decoded.width, decoded.height), 320)

        // c2pa-rs rates it Trusted with the daemon's own trust anchor, and it says what made it.
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [try lensd.trustAnchorFile()])
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Model"]?.string, "lensd synthetic camera")
        XCTAssertEqual(verdict.actions.first?.digitalSourceType,
                       "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia")
        // The Conformance Program's 2.4 asset rubric holds; the synthetic camera claims no capture.
        try ConformanceRubric.assertConformant(photo, anchors: [try lensd.trustAnchorFile()], capturedMedia: false)
        XCTAssertEqual(lensd.stateFiles.temporaryFiles, [])
    }

    /// Settling, as lensd does at SIGTERM (whose path is PhotoFlowTests' on the bus): the photo
    /// under way is stored and announced before the daemon stops.
    func testSettlingFinishesThePhotoUnderWay() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        let name = try XCTUnwrap(try c.call(session, "BeginCapture").first?.stringValue)
        var settled = false
        lensd.service.settle { settled = true }
        XCTAssertFalse(settled, "settled with a photo under way")
        try lensd.loop.run(until: { settled }, "settling")
        let signed = try XCTUnwrap(c.signals.last { $0.member == "PhotoSigned" })
        XCTAssertEqual(signed.arguments.first?.stringValue, name)
        XCTAssertNoThrow(try lensd.storedFile(name))
    }
}
