import LensTestSupport
import C2PA
import Foundation
import LensCrypto
import XCTest

/// Every JPEG shape lensd may meet, signed by lensd and judged by c2pa-python (c2pa-rs):
/// Trusted with a root made here, and every metadata value read back equal to the input.
final class SigningMatrixTests: XCTestCase {
    static let fix3D = GeoLocation(latitude: -33.856784, longitude: -151.215297, altitude: -12.5,
                                   horizontalError: 3.99, fixTime: Date(timeIntervalSince1970: 1_795_953_599))

    var tmp: TemporaryDirectory!
    var pki: TestPKI!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
    }

    override func tearDown() {
        tmp = nil  // XCTest keeps test case objects alive; the directory must go now
    }

    func testWithAPP0() throws { try check(variant: [], location: Self.fix3D) }
    func testWithoutAPP0() throws { try check(variant: .noApp0, location: Self.fix3D) }
    func testExifAPP1First() throws { try check(variant: .exifFirst, location: nil) }
    func testForeignAPP11Kept() throws { try check(variant: .foreignApp11, location: Self.fix3D) }
    func testWithoutLocation() throws { try check(variant: [], location: nil) }

    func testStoreOverThreeSegments() throws {
        let segments = try check(variant: [], location: Self.fix3D, chunkSize: 1000)
        XCTAssertGreaterThanOrEqual(segments, 3)
    }

    /// The optional c2pa.thumbnail.claim.jpeg: c2pa-rs finds it and still rates the file Trusted.
    func testWithThumbnailAssertion() throws {
        let input = try TestJPEG.make(at: tmp.file("in.jpg"))
        let thumbnail = Array(try Data(contentsOf: try TestJPEG.make(at: tmp.file("thumb.jpg"), width: 160, height: 120)))
        let output = tmp.file("signed.jpg")
        try LensdSigning.sign(input, into: output, pki: pki, location: Self.fix3D, thumbnail: thumbnail)
        let reference = try ReferenceValidator.assertTrusted(output, anchors: [pki.root])
        XCTAssertNotNil(reference.thumbnail)
        XCTAssertTrue(reference.claimAssertions.contains(Labels.thumbnailClaimJPEG), "\(reference.claimAssertions)")
        XCTAssertEqual(try LensdSigning.verify(output, anchors: [pki.root]).state, .trusted)
    }

    func testTwelveMegapixels() throws {
        try check(variant: [], location: Self.fix3D, width: 4000, height: 3000)
    }

    /// Signs one JPEG and checks it three ways; returns how many C2PA APP11 segments it got.
    @discardableResult
    private func check(variant: TestJPEG.Variant, location: GeoLocation?, chunkSize: Int = 65_000,
                       width: Int = 640, height: Int = 480, line: UInt = #line) throws -> Int {
        let input = try TestJPEG.make(at: tmp.file("in.jpg"), width: width, height: height, variant: variant)
        let output = tmp.file("signed.jpg")
        let metadata = try LensdSigning.sign(input, into: output, pki: pki, location: location, chunkSize: chunkSize)

        let reference = try ReferenceValidator.assertTrusted(output, anchors: [pki.root], line: line)
        XCTAssertEqual(reference.metadata[Labels.metadata], try expectedJSON(metadata), line: line)
        XCTAssertEqual(reference.actions.first?.action, "c2pa.created", line: line)
        XCTAssertEqual(reference.actions.first?.digitalSourceType,
                       ActionsAssertion.DigitalSourceType.digitalCapture.rawValue, line: line)
        if let location {
            let read = try XCTUnwrap(LensdSigning.verify(output, anchors: [pki.root]).location)
            XCTAssertEqual(read.latitude, location.latitude, accuracy: 1e-7, line: line)
            XCTAssertEqual(read.longitude, location.longitude, accuracy: 1e-7, line: line)
        }

        let own = try LensdSigning.verify(output, anchors: [pki.root])
        XCTAssertEqual(own.state, .trusted, "\(own.failures)", line: line)

        // The inserted APP11 segments are the only change: without them the file is the input.
        let original = Array(try Data(contentsOf: input))
        let signed = Array(try Data(contentsOf: output))
        let (stripped, count) = try JPEGSegments.removingC2PASegments(signed)
        XCTAssertEqual(stripped, original, "signed file minus its APP11 segments differs from the input", line: line)
        return count
    }

    private func expectedJSON(_ metadata: CaptureMetadata) throws -> OracleJSON {
        let bytes: [UInt8]
        guard case .json(let json) = try MetadataAssertion(metadata).content() else { throw TestToolError("not JSON") }
        bytes = json
        return try JSONDecoder().decode(OracleJSON.self, from: Data(bytes))
    }
}
