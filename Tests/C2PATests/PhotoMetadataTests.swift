import C2PA
import Foundation
import LensTestSupport
import XCTest

/// A signed photo's Exif and XMP, as exiftool reads them: the facts of its `c2pa.metadata`
/// (c2pa-python reads that), in their standard tags, covered by the signature — one changed byte
/// of either makes the photo Invalid for c2pa-python and for lensd's verifier.
final class PhotoMetadataTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var pki: TestPKI!

    /// 1 km off Valparaíso (south, west), 12.34 m above the sea; the fix 0.75 s before the capture.
    private let fix = GeoLocation(latitude: -33.0456123, longitude: -71.6519876, altitude: 12.34, horizontalError: 4.5,
                                  fixTime: Date(timeIntervalSince1970: 1_795_953_599.5))

    override func setUpWithError() throws {
        tmp = try temporaryDirectory(prefix: "photo-metadata")
        pki = try TestPKI.make(in: tmp.file("pki"))
    }

    private func metadata(location: GeoLocation?, zoom: Double? = 2) -> CaptureMetadata {
        var metadata = LensdSigning.metadata(location: location)  // 2026-11-29 09:00:00.250 in São Paulo (-03:00)
        metadata.digitalZoomRatio = zoom
        metadata.software = "lensd 0.1.0-test"
        return metadata
    }

    /// Signed in memory, as lensd signs a photo.
    private func signed(_ metadata: CaptureMetadata, _ name: String) throws -> URL {
        let input = try TestJPEG.make(at: tmp.file("\(name)-unsigned.jpg"))
        let writer = try LensdSigning.writer(pki: pki, metadata: metadata)
        let jpeg = try JPEGSigner(writer: writer, metadata: metadata).sign([UInt8](try Data(contentsOf: input)))
        let output = tmp.file("\(name).jpg")
        try Data(jpeg).write(to: output)
        return output
    }

    func testExiftoolReadsTheManifestsFactsFromExifAndXMP() throws {
        let photo = try signed(metadata(location: fix), "located")
        let verdict = try ReferenceValidator.assertTrusted(photo, anchors: [pki.root])
        let asserted = try XCTUnwrap(verdict.metadata["c2pa.metadata"])
        let exif = try ExifToolReport.read(photo)
        XCTAssertEqual(exif.warnings, [], "exiftool -validate")

        // The camera and the picture's orientation, in IFD0 and XMP, as the manifest has them.
        for (tag, key) in [("Make", "tiff:Make"), ("Model", "tiff:Model"), ("Software", "tiff:Software")] {
            XCTAssertEqual(exif["IFD0:\(tag)"]?.string, asserted[key]?.string, tag)
            XCTAssertEqual(exif["XMP-tiff:\(tag)"]?.string, asserted[key]?.string, tag)
        }
        XCTAssertEqual(exif["IFD0:Make"]?.string, "Lensd Test")
        XCTAssertEqual(exif["IFD0:Orientation"]?.int, 1)
        XCTAssertEqual(exif["XMP-tiff:Orientation"]?.int, 1)
        XCTAssertEqual(asserted["tiff:Orientation"]?.int, 1)

        // The local wall time, its offset and milliseconds: Exif's three tags, XMP's one date, the manifest's.
        XCTAssertEqual(exif["ExifIFD:DateTimeOriginal"]?.string, "2026:11:29 09:00:00")
        XCTAssertEqual(exif["ExifIFD:OffsetTimeOriginal"]?.string, "-03:00")
        XCTAssertEqual(exif["ExifIFD:SubSecTimeOriginal"]?.int, 250)
        XCTAssertEqual(exif["Composite:SubSecDateTimeOriginal"]?.string, "2026:11:29 09:00:00.250-03:00")
        XCTAssertEqual(exif["XMP-exif:DateTimeOriginal"]?.string, "2026:11:29 09:00:00.250-03:00")
        XCTAssertEqual(asserted["exif:DateTimeOriginal"]?.string, "2026-11-29T09:00:00.250-03:00")
        XCTAssertEqual(asserted["exif:OffsetTimeOriginal"]?.string, "-03:00")
        XCTAssertEqual(exif["ExifIFD:DigitalZoomRatio"]?.double, 2)

        // The fix: south and west in the refs, the same degrees as the manifest's to its last digit.
        XCTAssertEqual(exif["GPS:GPSLatitudeRef"]?.string, "S")
        XCTAssertEqual(exif["GPS:GPSLongitudeRef"]?.string, "W")
        let latitude = try XCTUnwrap(asserted["exif:GPSLatitude"]?.string.flatMap(VerificationReport.coordinate))
        let longitude = try XCTUnwrap(asserted["exif:GPSLongitude"]?.string.flatMap(VerificationReport.coordinate))
        XCTAssertEqual(latitude, fix.latitude, accuracy: 1e-7)
        XCTAssertEqual(longitude, fix.longitude, accuracy: 1e-7)
        for (group, sign) in [("GPS", -1.0), ("Composite", 1.0), ("XMP-exif", 1.0)] {
            XCTAssertEqual(try XCTUnwrap(exif["\(group):GPSLatitude"]?.double, group) * sign, latitude, accuracy: 1e-9, group)
            XCTAssertEqual(try XCTUnwrap(exif["\(group):GPSLongitude"]?.double, group) * sign, longitude, accuracy: 1e-9, group)
        }
        XCTAssertEqual(exif["GPS:GPSVersionID"]?.string, "2 3 0 0")
        XCTAssertEqual(asserted["exif:GPSVersionID"]?.string, "2.3.0.0")
        XCTAssertEqual(exif["GPS:GPSAltitudeRef"]?.int, 0)
        XCTAssertEqual(exif["GPS:GPSAltitude"]?.double, 12.34)
        XCTAssertEqual(asserted["exif:GPSAltitude"]?.string, "1234/100")
        XCTAssertEqual(exif["GPS:GPSHPositioningError"]?.double, 4.5)
        XCTAssertEqual(exif["GPS:GPSDateStamp"]?.string, "2026:11:29")
        XCTAssertEqual(exif["GPS:GPSTimeStamp"]?.string, "11:59:59.5")
        XCTAssertEqual(asserted["exif:GPSTimeStamp"]?.string, "2026-11-29T11:59:59.500Z")
        XCTAssertNil(exif["GPS:GPSProcessingMethod"], "a measured fix")
        XCTAssertNil(exif["XMP-dcterms:Provenance"], "C2PA 2.x: dcterms:provenance is for external manifests only")
    }

    /// Without a fix or zoom: no GPS IFD and no zoom tag; a declared location says MANUAL, as its manifest does.
    func testOnlyWhatIsKnownIsWritten() throws {
        let plain = try ExifToolReport.read(try signed(metadata(location: nil, zoom: nil), "plain"))
        XCTAssertEqual(plain.warnings, [])
        XCTAssertEqual(plain["IFD0:Model"]?.string, "matrix camera")
        XCTAssertFalse(plain.tags.keys.contains { $0.hasPrefix("GPS:") || $0.contains("GPSLatitude") }, "\(plain.tags.keys.sorted())")
        XCTAssertNil(plain["ExifIFD:DigitalZoomRatio"])
        XCTAssertNil(plain["XMP-exif:DigitalZoomRatio"])

        var declared = fix
        (declared.altitude, declared.isDeclared) = (nil, true)
        let manual = try signed(metadata(location: declared), "declared")
        let exif = try ExifToolReport.read(manual)
        XCTAssertEqual(exif["GPS:GPSProcessingMethod"]?.string, "MANUAL")
        XCTAssertEqual(exif["XMP-exif:GPSProcessingMethod"]?.string, "MANUAL")
        XCTAssertNil(exif["GPS:GPSAltitude"], "a declared 2D location")
        try ReferenceValidator.assertTrusted(manual, anchors: [pki.root])
    }

    /// File to file (lens-bench, `lensctl`-made test files) writes the same segments as in memory.
    func testFileToFileSigningWritesTheSameSegments() throws {
        let metadata = metadata(location: fix)
        let inMemory = try signed(metadata, "in-memory")
        let onDisk = tmp.file("on-disk.jpg")
        try JPEGSigner(writer: try LensdSigning.writer(pki: pki, metadata: metadata), metadata: metadata)
            .sign(inputPath: tmp.file("in-memory-unsigned.jpg").path, outputPath: onDisk.path)
        try ReferenceValidator.assertTrusted(onDisk, anchors: [pki.root])
        let app1 = { (file: URL) -> [[UInt8]] in
            let bytes = [UInt8](try Data(contentsOf: file))
            return try JPEGSegments.header(bytes).filter { $0.marker == 0xE1 }.map { Array(bytes[$0.range]) }
        }
        XCTAssertEqual(try app1(onDisk).count, 2)
        XCTAssertEqual(try app1(onDisk), try app1(inMemory))
    }

    /// One byte of the Exif block (the make), then of the XMP packet: both verifiers say Invalid,
    /// for the data hash.
    func testAChangedMetadataByteMakesThePhotoInvalid() throws {
        let photo = try signed(metadata(location: fix), "original")
        let bytes = [UInt8](try Data(contentsOf: photo))
        let header = try JPEGSegments.header(bytes)
        // SOI, APP0, then Exif and XMP, then the manifest store: where photo software looks for each.
        XCTAssertEqual(header.prefix(4).map(\.marker), [0xE0, 0xE1, 0xE1, 0xEB])
        let segments = header.filter { $0.marker == 0xE1 }
        XCTAssertEqual(segments.count, 2)
        for (name, segment, text) in [("exif", segments[0], "Lensd Test"), ("xmp", segments[1], "matrix camera")] {
            let at = try XCTUnwrap(find(Array(text.utf8), in: bytes, within: segment.range), name)
            var tampered = bytes
            tampered[at] ^= 0x20  // "lensd Test", "Matrix camera": still text, another make
            let file = tmp.file("tampered-\(name).jpg")
            try Data(tampered).write(to: file)
            let reference = try ReferenceValidator.verdict(file: file, anchors: [pki.root])
            XCTAssertEqual(reference.validationState, "Invalid", name)
            XCTAssertTrue(reference.failureCodes.contains("assertion.dataHash.mismatch"), "\(name): \(reference.failureCodes)")
            let lensd = try LensdSigning.verify(file, anchors: [pki.root])
            XCTAssertEqual(lensd.state, .invalid, name)
            XCTAssertTrue(lensd.failures.contains { $0.code == "assertion.dataHash.mismatch" }, "\(name): \(lensd.failures)")
        }
    }

    private func find(_ needle: [UInt8], in bytes: [UInt8], within range: Range<Int>) -> Int? {
        (range.lowerBound...(range.upperBound - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }
}
