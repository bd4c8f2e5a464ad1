import Foundation
import LensBus
@testable import LensDaemon
import LensTestSupport
import XCTest

/// What lensctl's per-capture flags rest on, in process: the settings a photo was taken with are
/// in its manifest, and each camera keeps its own. (lensctl putting them back afterwards, its
/// messages and output are CaptureSideEffectTests', on the bus.)
final class CaptureSettingsFlowTests: DaemonTestCase {
    private func device(_ c: HarnessClient, _ s: String) throws -> (path: String?, zoom: Double?, flash: String?) {
        let device = try XCTUnwrap(try c.get(s, "CurrentDevice").vardictValue)
        return (device["path"]?.stringValue, device["videoZoomFactor"]?.doubleValue, device["flashMode"]?.stringValue)
    }

    func testAPhotosManifestRecordsTheZoomItWasTakenWith() throws {
        let c = lensd.client()
        let s = try c.claimedSession()
        try c.call(s, "SelectCamera", [.string("synthetic:front")])
        XCTAssertEqual(try c.call(s, "SetZoomFactor", [.double(5)]).first?.doubleValue, 5)
        try c.call(s, "SetFlashMode", [.string("on")])
        let (name, _) = try c.photo(in: s)
        let verdict = try ReferenceValidator.assertTrusted(try lensd.storedFile(name), anchors: [try lensd.trustAnchorFile()])
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["exif:DigitalZoomRatio"]?.string, "500/100")
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Model"]?.string, "lensd synthetic camera")
    }

    func testEachCameraKeepsItsOwnZoomAndFlash() throws {
        let c = lensd.client()
        let s = try c.claimedSession()
        try c.call(s, "SelectCamera", [.string("synthetic:front")])
        try c.call(s, "SetZoomFactor", [.double(5)])
        try c.call(s, "SetFlashMode", [.string("on")])
        try c.call(s, "ChangeCamera")
        let back = try device(c, s)
        XCTAssertEqual(back.path, "synthetic:back")
        XCTAssertEqual(back.zoom, 1)
        XCTAssertEqual(back.flash, "off")
        try c.call(s, "ChangeCamera")
        let front = try device(c, s)
        XCTAssertEqual(front.path, "synthetic:front")
        XCTAssertEqual(front.zoom, 5)
        XCTAssertEqual(front.flash, "on")
    }
}
