import C2PA
import Foundation
import LensBus
import LensCore
import LensCrypto
@testable import LensDaemon
import LensTestSupport
import XCTest

/// What ordinary software reads in lensd's files, with a fix south and west of Greenwich (off
/// Valparaíso, 3D): a signed photo's Exif and XMP and a signed video's QuickTime metadata, read by
/// exiftool (and ffprobe), equal to the fix and to the manifest c2pa-python reads and trusts; one
/// changed byte of them makes the file Invalid for c2pa-python and for lensd's verifier.
final class FileMetadataFlowTests: DaemonTestCase {
    private let source = FedLocationSource()
    private let latitude = -33.0456123, longitude = -71.6519876, altitude = 12.34

    override func makeDaemon() throws -> DaemonHarness {
        try DaemonHarness([], location: source)
    }

    /// The fix, reported as gpsd reports it, until the session's Location shows it.
    private func locatedSession(_ c: HarnessClient) throws -> String {
        let session = try c.claimedSession()
        let now = lensd.loop.clock.wall()
        source.report(.fix(LocationFix(latitude: latitude, longitude: longitude, altitude: altitude, horizontalAccuracy: 4.5,
                                       mode: .threeD, fixTime: now, receivedAt: now)))
        try lensd.loop.run(until: { (try? c.get(session, "Location"))?.vardictValue?["latitude"] != nil }, "the fix reaches the session")
        return session
    }

    /// The result fetched into `file`; Trusted by c2pa-python and lensd's verifier; what its
    /// manifest's c2pa.metadata says; what exiftool reads in it (and its structure warns of nothing).
    private func fetchedAndJudged(_ name: String, _ c: HarnessClient, _ session: String, as file: String)
        throws -> (file: URL, anchor: URL, asserted: OracleJSON, exif: ExifToolReport) {
        let url = lensd.tmp.file(file)
        try c.fetchResult(name, in: session, to: url)
        let anchor = try c.trustAnchorFile(in: lensd.tmp)
        let asserted = try XCTUnwrap(try ReferenceValidator.assertTrusted(url, anchors: [anchor]).metadata["c2pa.metadata"])
        XCTAssertEqual(try lensdVerdict(url, anchor: anchor).state, .trusted)
        let exif = try ExifToolReport.read(url)
        XCTAssertEqual(exif.warnings, [])
        return (url, anchor, asserted, exif)
    }

    private func lensdVerdict(_ file: URL, anchor: URL) throws -> VerificationReport {
        try Verifier(trustAnchors: try Certificate.parsePEM(try String(contentsOf: anchor, encoding: .utf8))).verify(fileAt: file.path)
    }

    /// The copy of `file` with the byte at `offset` changed to `value`.
    private func tampered(_ file: URL, at offset: Int, to value: UInt8, _ name: String) throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: file))
        XCTAssertNotEqual(bytes[offset], value)
        bytes[offset] = value
        let copy = lensd.tmp.file(name)
        try Data(bytes).write(to: copy)
        return copy
    }

    private func assertInvalid(_ file: URL, anchor: URL, code: String, line: UInt = #line) throws {
        let reference = try ReferenceValidator.verdict(file: file, anchors: [anchor])
        XCTAssertEqual(reference.validationState, "Invalid", line: line)
        XCTAssertTrue(reference.failureCodes.contains(code), "\(reference.failureCodes)", line: line)
        let own = try lensdVerdict(file, anchor: anchor)
        XCTAssertEqual(own.state, .invalid, line: line)
        XCTAssertTrue(own.failures.contains { $0.code == code }, "\(own.failures)", line: line)
    }

    func testAPhotosExifAndXMPSayWhatItsManifestSays() throws {
        let c = lensd.client()
        let session = try locatedSession(c)
        let name = try XCTUnwrap(c.call(session, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: session)
        let (photo, anchor, asserted, exif) = try fetchedAndJudged(name, c, session, as: "photo.jpg")
        XCTAssertEqual(exif["IFD0:Make"]?.string, "lensd")
        XCTAssertEqual(exif["IFD0:Model"]?.string, "lensd synthetic camera")
        XCTAssertEqual(exif["IFD0:Model"]?.string, asserted["tiff:Model"]?.string)
        XCTAssertEqual(exif["IFD0:Orientation"]?.int, 1)
        XCTAssertEqual(exif["IFD0:Software"]?.string, "lensd \(ProjectVersion.string)")
        XCTAssertEqual(exif["XMP-tiff:Model"]?.string, asserted["tiff:Model"]?.string)
        XCTAssertEqual(exif["ExifIFD:ExifImageWidth"]?.int, 320)
        // exiftool's "2026:12:04 20:09:19.123+01:00" is the manifest's "2026-12-04T20:09:19.123+01:00".
        let dateTime = try XCTUnwrap(asserted["exif:DateTimeOriginal"]?.string)
        let exifDate = String(dateTime.prefix(19)).replacingOccurrences(of: "-", with: ":").replacingOccurrences(of: "T", with: " ")
        XCTAssertEqual(exif["ExifIFD:DateTimeOriginal"]?.string, exifDate)
        XCTAssertEqual(exif["ExifIFD:OffsetTimeOriginal"]?.string, asserted["exif:OffsetTimeOriginal"]?.string)
        XCTAssertEqual(exif["ExifIFD:SubSecTimeOriginal"].flatMap { $0.int.map { String(format: "%03d", $0) } ?? $0.string },
                       String(dateTime.dropFirst(20).prefix(3)))
        XCTAssertNotNil(exif["XMP-exif:DateTimeOriginal"])

        XCTAssertEqual(exif["GPS:GPSLatitudeRef"]?.string, "S")
        XCTAssertEqual(exif["GPS:GPSLongitudeRef"]?.string, "W")
        XCTAssertEqual(try XCTUnwrap(exif["Composite:GPSLatitude"]?.double), latitude, accuracy: 1e-7)
        XCTAssertEqual(try XCTUnwrap(exif["Composite:GPSLongitude"]?.double), longitude, accuracy: 1e-7)
        XCTAssertEqual(try XCTUnwrap(exif["XMP-exif:GPSLatitude"]?.double), latitude, accuracy: 1e-7)
        XCTAssertEqual(try XCTUnwrap(exif["XMP-exif:GPSLongitude"]?.double), longitude, accuracy: 1e-7)
        XCTAssertEqual(asserted["exif:GPSLatitude"]?.string, "33,02.736738S")
        XCTAssertEqual(asserted["exif:GPSLongitude"]?.string, "71,39.119256W")
        XCTAssertEqual(exif["GPS:GPSAltitude"]?.double, altitude)
        XCTAssertEqual(exif["GPS:GPSHPositioningError"]?.double, 4.5)

        // The first byte of the make's text in IFD0 ("lensd" → "Lensd"): Invalid, for the data hash.
        let bytes = [UInt8](try Data(contentsOf: photo))
        let exifSegment = try XCTUnwrap(try JPEGSegments.header(bytes).first { $0.marker == 0xE1 })
        let make = try XCTUnwrap(exifSegment.range.first { Array(bytes[$0..<($0 + 6)]) == Array("lensd\0".utf8) })
        try assertInvalid(try tampered(photo, at: make, to: UInt8(ascii: "L"), "tampered.jpg"), anchor: anchor,
                          code: "assertion.dataHash.mismatch")
    }

    func testAVideosQuickTimeMetadataSaysWhatItsManifestSays() throws {
        try TestUsers.ensure()
        let c = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        let session = try locatedSession(c)
        let (name, _) = try c.recordVideo(in: session, seconds: 1)
        let (video, anchor, asserted, exif) = try fetchedAndJudged(name, c, session, as: "video.mp4")
        XCTAssertEqual(exif["Keys:Make"]?.string, asserted["tiff:Make"]?.string)
        XCTAssertEqual(exif["Keys:Model"]?.string, "lensd synthetic camera")
        XCTAssertEqual(exif["Keys:Model"]?.string, asserted["tiff:Model"]?.string)
        XCTAssertNotNil(exif["Keys:CreationDate"])
        let coordinates = try XCTUnwrap(exif["Keys:GPSCoordinates"]?.string).split(separator: " ").compactMap { Double($0) }
        XCTAssertEqual(coordinates.count, 3)
        XCTAssertEqual(coordinates.first ?? 0, latitude, accuracy: 1e-6)
        XCTAssertEqual(coordinates.dropFirst().first ?? 0, longitude, accuracy: 1e-6)
        XCTAssertEqual(coordinates.last ?? 0, altitude, accuracy: 1e-9)
        XCTAssertEqual(exif["UserData:GPSCoordinates"]?.string, exif["Keys:GPSCoordinates"]?.string)
        let tags = try FFprobeReport.formatTags(video)
        XCTAssertEqual(tags["location"], "-33.045612-071.651988+012.340/", "\(tags)")
        XCTAssertEqual(tags["com.apple.quicktime.make"], "lensd")
        XCTAssertEqual(tags["com.apple.quicktime.creationdate"], asserted["exif:DateTimeOriginal"]?.string)

        // The last ©xyz (the first is in the retired journal moov, a free box): its first digit, 3 → 4.
        let bytes = [UInt8](try Data(contentsOf: video))
        let box = [0xA9] + Array("xyz".utf8)
        let at = try XCTUnwrap((0..<(bytes.count - 4)).last { Array(bytes[$0..<($0 + 4)]) == box })
        try assertInvalid(try tampered(video, at: at + 9, to: UInt8(ascii: "4"), "tampered.mp4"), anchor: anchor,
                          code: "assertion.bmffHash.mismatch")
    }
}
