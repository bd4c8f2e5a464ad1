import C2PA
import Foundation
@testable import LensCore
import LensCrypto
@testable import LensMedia
import LensTestSupport
import XCTest

/// A recording's moov says where and with what it was made — QuickTime's `©xyz` and Apple's
/// `mdta` keys, as exiftool and ffprobe read them — from the facts its manifest asserts, also
/// after a crash; the C2PA BMFF hash covers them: one changed byte of `©xyz` makes the file Invalid.
final class VideoMetadataTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var pki: TestPKI!
    private let start = Date(timeIntervalSince1970: 1_795_953_600.25)  // 2026-11-29 12:00:00.25 UTC
    private let generator = ClaimGeneratorInfo(name: "lensd-tests", version: "0")

    override func setUpWithError() throws {
        directory = try temporaryDirectory(prefix: "lensd-video-metadata")
        pki = try TestPKI.make(in: directory.url)
    }

    private var facts: VideoSigning.Facts {
        VideoSigning.Facts(startTime: start, make: "lensd", model: "test muxer", isSynthetic: true, digitalZoomRatio: nil)
    }

    /// South and west, 3D.
    private var fix: LocationFix {
        LocationFix(latitude: -33.0456123, longitude: -71.6519876, altitude: 12.34, horizontalAccuracy: 4.5, mode: .threeD,
                    fixTime: start, receivedAt: start)
    }

    private let santiago = TimeZone(identifier: "America/Santiago")!

    /// A journal of 30 MJPEG frames whose moov carries the recording's QuickTime metadata.
    private func journal(_ path: String, location: LocationFix?) throws -> FragmentedMP4Writer {
        let writer = try FragmentedMP4Writer(path: path, track: VideoTrack(format: .jpeg, width: 320, height: 240), creationTime: start,
                                             metadata: facts.metadata(location: location, generator: generator, timeZone: santiago))
        for fragment in 0..<3 { try writer.appendFragment(try MP4TestMedia.jpegFrames(count: 10, first: fragment * 10)) }
        return writer
    }

    private func sign(_ video: FinalizedMP4, location: LocationFix?) throws {
        let signer = try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8),
                                   chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
        try VideoSigning(signer: signer, generator: generator, timeZone: santiago).sign(video, facts: facts, location: location)
    }

    func testExiftoolAndFFprobeReadWhereAndWithWhatItWasRecorded() throws {
        let path = directory.file("clip.mp4").path
        try sign(try journal(path, location: fix).finish(), location: fix)
        let url = URL(fileURLWithPath: path)
        let asserted = try XCTUnwrap(try ReferenceValidator.assertTrusted(url, anchors: [pki.root]).metadata["c2pa.metadata"])
        try assertCarriesTheFacts(url, asserted: asserted)
        XCTAssertEqual(try FFprobeReport.read(url).frames, 30)
    }

    /// Recovery finalizes a journal a crash left with the metadata its start wrote.
    func testARecoveredRecordingKeepsItsMetadata() throws {
        let path = directory.file("crashed.mp4").path
        _ = try journal(path, location: fix)  // never finished
        try sign(try MP4Recovery.finalize(path: path), location: fix)
        let url = URL(fileURLWithPath: path)
        let asserted = try XCTUnwrap(try ReferenceValidator.assertTrusted(url, anchors: [pki.root]).metadata["c2pa.metadata"])
        try assertCarriesTheFacts(url, asserted: asserted)
    }

    /// Without a fix: camera and date, no location anywhere.
    func testWithoutAFixNoLocationIsWritten() throws {
        let path = directory.file("indoors.mp4").path
        try sign(try journal(path, location: nil).finish(), location: nil)
        let url = URL(fileURLWithPath: path)
        try ReferenceValidator.assertTrusted(url, anchors: [pki.root])
        let exif = try ExifToolReport.read(url)
        XCTAssertEqual(exif["Keys:Model"]?.string, "test muxer")
        XCTAssertFalse(exif.tags.keys.contains { $0.contains("GPS") }, "\(exif.tags.keys.sorted())")
        XCTAssertNil(try FFprobeReport.formatTags(url)["location"])
    }

    func testAChangedLocationByteMakesTheVideoInvalid() throws {
        let path = directory.file("clip.mp4").path
        try sign(try journal(path, location: fix).finish(), location: fix)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let box = [0xA9] + Array("xyz".utf8)
        // The last: the first is in the journal's moov, retired to a `free` box the hash leaves out.
        let at = try XCTUnwrap((0..<(bytes.count - 4)).last { Array(bytes[$0..<($0 + 4)]) == box })
        // The box's text starts after type, length and language: its first digit, 3 → 4 (34° S).
        XCTAssertEqual(bytes[at + 9], UInt8(ascii: "3"))
        bytes[at + 9] = UInt8(ascii: "4")
        let tampered = directory.file("tampered.mp4")
        try Data(bytes).write(to: tampered)
        XCTAssertEqual(try FFprobeReport.formatTags(tampered)["location"]?.prefix(4), "-43.")
        let reference = try ReferenceValidator.verdict(file: tampered, anchors: [pki.root])
        XCTAssertEqual(reference.validationState, "Invalid")
        XCTAssertTrue(reference.failureCodes.contains("assertion.bmffHash.mismatch"), "\(reference.failureCodes)")
        let certificates = try Certificate.parsePEM(try String(contentsOf: pki.root, encoding: .utf8))
        let lensd = try Verifier(trustAnchors: certificates).verify(fileAt: tampered.path)
        XCTAssertEqual(lensd.state, .invalid)
        XCTAssertTrue(lensd.failures.contains { $0.code == "assertion.bmffHash.mismatch" }, "\(lensd.failures)")
    }

    /// ISO 6709 as Apple's cameras write it: signed, zero-padded degrees, the altitude with a 3D fix only.
    func testLocationTextIsISO6709() {
        let at = { (latitude: Double, longitude: Double, altitude: Double?) in
            QuickTimeMetadata.iso6709(GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude,
                                                  horizontalError: 5, fixTime: self.start))
        }
        XCTAssertEqual(at(-33.0456123, -71.6519876, 12.34), "-33.045612-071.651988+012.340/")
        XCTAssertEqual(at(48.0845, 11.5, nil), "+48.084500+011.500000/")
        XCTAssertEqual(at(-0.5, -179.25, -28.5), "-00.500000-179.250000-028.500/")
    }

    private func assertCarriesTheFacts(_ url: URL, asserted: OracleJSON, line: UInt = #line) throws {
        let exif = try ExifToolReport.read(url)
        XCTAssertEqual(exif.warnings, [], line: line)
        XCTAssertEqual(exif["Keys:Make"]?.string, asserted["tiff:Make"]?.string, line: line)
        XCTAssertEqual(exif["Keys:Model"]?.string, "test muxer", line: line)
        XCTAssertEqual(exif["Keys:Model"]?.string, asserted["tiff:Model"]?.string, line: line)
        // The manifest's wall time (Santiago, -03:00 in summer), as exiftool writes dates.
        XCTAssertEqual(asserted["exif:DateTimeOriginal"]?.string, "2026-11-29T09:00:00.250-03:00", line: line)
        XCTAssertEqual(exif["Keys:CreationDate"]?.string, "2026:11:29 09:00:00.250-03:00", line: line)
        // -n: "lat lon alt", signed degrees; the manifest's "DD,MM.mmmmmmK" to within the ISO 6709 text's 1e-6°.
        let latitude = try XCTUnwrap(asserted["exif:GPSLatitude"]?.string.flatMap(VerificationReport.coordinate), line: line)
        let longitude = try XCTUnwrap(asserted["exif:GPSLongitude"]?.string.flatMap(VerificationReport.coordinate), line: line)
        for group in ["Keys", "UserData"] {
            let parts = try XCTUnwrap(exif["\(group):GPSCoordinates"]?.string, group, line: line).split(separator: " ").compactMap { Double($0) }
            XCTAssertEqual(parts.count, 3, group, line: line)
            XCTAssertEqual(parts.first ?? 0, latitude, accuracy: 1e-6, group, line: line)
            XCTAssertEqual(parts.dropFirst().first ?? 0, longitude, accuracy: 1e-6, group, line: line)
            XCTAssertEqual(parts.last ?? 0, 12.34, accuracy: 1e-9, group, line: line)
        }
        let tags = try FFprobeReport.formatTags(url)
        XCTAssertEqual(tags["location"], "-33.045612-071.651988+012.340/", "\(tags)", line: line)
        XCTAssertEqual(tags["com.apple.quicktime.location.ISO6709"], "-33.045612-071.651988+012.340/", line: line)
        XCTAssertEqual(tags["com.apple.quicktime.make"], "lensd", line: line)
        XCTAssertEqual(tags["com.apple.quicktime.model"], "test muxer", line: line)
        XCTAssertEqual(tags["com.apple.quicktime.creationdate"], "2026-11-29T09:00:00.250-03:00", line: line)
    }
}
