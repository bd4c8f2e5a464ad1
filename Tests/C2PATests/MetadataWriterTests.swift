import Foundation
import LensTestSupport
import XCTest
@testable import C2PA
@testable import C2PAEncoding

/// ExifWriter's TIFF structure and XMPWriter's packet, byte by byte where a reader depends on it;
/// PhotoMetadataTests has exiftool read them in a signed photo.
final class MetadataWriterTests: XCTestCase {
    private let fix = GeoLocation(latitude: -33.0456123, longitude: -71.6519876, altitude: -3.5, horizontalError: 4.5,
                                  fixTime: Date(timeIntervalSince1970: 1_795_953_599.5))

    private func metadata(make: String = "lensd", model: String = "camera", location: GeoLocation? = nil) -> CaptureMetadata {
        CaptureMetadata(captureTime: Date(timeIntervalSince1970: 1_795_953_600.25), timeZone: TimeZone(secondsFromGMT: 0)!,
                        make: make, model: model, location: location)
    }

    /// The IFDs of a TIFF block: for each, its offset and (tag, type, count, value-or-offset) entries.
    private func ifds(_ tiff: [UInt8]) -> [Int: [(tag: Int, type: Int, count: Int, value: Int)]] {
        func u16(_ at: Int) -> Int { Int(tiff[at]) << 8 | Int(tiff[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        var found: [Int: [(tag: Int, type: Int, count: Int, value: Int)]] = [:]
        var pending = [u32(4)]
        while let offset = pending.popLast() {
            let entries = (0..<u16(offset)).map { index -> (tag: Int, type: Int, count: Int, value: Int) in
                let at = offset + 2 + 12 * index
                return (u16(at), u16(at + 2), u32(at + 4), u32(at + 8))
            }
            found[offset] = entries
            pending += entries.filter { [0x8769, 0x8825].contains($0.tag) }.map(\.value)
        }
        return found
    }

    func testTheTIFFBlockIsBigEndianWithSortedEntriesAndValuesInside() throws {
        let tiff = ExifWriter.tiff(metadata(location: fix), pixelSize: .init(width: 4000, height: 3000))
        XCTAssertEqual(Array(tiff.prefix(8)), [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08])
        let directories = ifds(tiff)
        XCTAssertEqual(directories.count, 3, "IFD0, Exif, GPS")
        for (offset, entries) in directories {
            XCTAssertEqual(entries.map(\.tag), entries.map(\.tag).sorted(), "IFD at \(offset)")
            XCTAssertEqual(offset % 2, 0)
            let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1]
            for entry in entries where entry.count * sizes[entry.type]! > 4 {
                XCTAssertEqual(entry.value % 2, 0, "tag \(entry.tag)")
                XCTAssertLessThanOrEqual(entry.value + entry.count * sizes[entry.type]!, tiff.count, "tag \(entry.tag)")
            }
        }
        let exif = try XCTUnwrap(directories.values.first { $0.contains { $0.tag == 0x9003 } })
        XCTAssertEqual(exif.first { $0.tag == 0xA002 }?.value, 4000)
        XCTAssertEqual(exif.first { $0.tag == 0xA003 }?.value, 3000)
        let gps = try XCTUnwrap(directories.values.first { $0.contains { $0.tag == 0x0002 } })
        // A fix below the sea: AltitudeRef 1, the altitude itself unsigned.
        XCTAssertEqual(gps.first { $0.tag == 0x0005 }?.value, 1 << 24)
        XCTAssertEqual(gps.first { $0.tag == 0x0001 }.map { $0.value >> 24 }, Int(Character("S").asciiValue!))  // "S\0" inside
    }

    func testWithoutAFixThereIsNoGPSIFD() {
        let directories = ifds(ExifWriter.tiff(metadata(), pixelSize: .init(width: 1, height: 1)))
        XCTAssertEqual(directories.count, 2)
        XCTAssertFalse(directories.values.joined().contains { $0.tag == 0x8825 })
    }

    /// A NUL would end Exif's text early; it is left out, not the rest of the name.
    func testTextHoldsNoNUL() {
        let entry = ExifWriter.Entry.ascii(0x010F, "ab\0c")
        XCTAssertEqual(entry.value, Array("abc\0".utf8))
        XCTAssertEqual(entry.count, 4)
    }

    /// Device names are the device's: quotes, markup and control characters stay text, and the
    /// packet is still XML (python's parser reads it back to the same name).
    func testXMPEscapesWhatADeviceNameHolds() throws {
        let model = "cam \"1\" <usb> & co\u{1}\ttab"
        let packet = XMPWriter.packet(metadata(model: model, location: fix))
        let text = String(decoding: packet, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"))
        XCTAssertTrue(text.hasSuffix("<?xpacket end=\"r\"?>"))
        XCTAssertTrue(text.contains(#"tiff:Model="cam &quot;1&quot; &lt;usb&gt; &amp; co&#9;tab""#), text)
        XCTAssertTrue(text.contains(#"exif:GPSLatitude="33,02.736738S""#), text)
        XCTAssertTrue(text.contains(#"exif:GPSAltitudeRef="1""#), text)
        let directory = try TemporaryDirectory(prefix: "xmp")
        let file = directory.file("packet.xmp")
        try Data(packet).write(to: file)
        let parsed = try runProcess(["python3", "-c", """
            import sys, xml.etree.ElementTree as ET
            d = ET.parse(sys.argv[1]).getroot().find('.//{http://www.w3.org/1999/02/22-rdf-syntax-ns#}Description')
            sys.stdout.write(d.get('{http://ns.adobe.com/tiff/1.0/}Model'))
            """, file.path])
        XCTAssertEqual(parsed.status, 0, String(decoding: parsed.stderr, as: UTF8.self))
        XCTAssertEqual(String(decoding: parsed.stdout, as: UTF8.self), "cam \"1\" <usb> & co\ttab")
    }
}
