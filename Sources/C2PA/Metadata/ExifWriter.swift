import FoundationEssentials
import LensSystem

/// The TIFF structure of an Exif block (Exif 2.32, big-endian) saying what `CaptureMetadata`
/// says, in the same roundings as `MetadataAssertion`, so the block and the manifest agree:
/// IFD0 (Make, Model, Orientation, Software), the Exif IFD (DateTimeOriginal, OffsetTimeOriginal,
/// SubSecTimeOriginal, DigitalZoomRatio) and, with a fix, the GPS IFD; with the tags Exif requires
/// of a JPEG's block (resolution, YCbCr positioning, versions, components, colour space, pixel size).
enum ExifWriter {
    /// GPSVersionID, which the manifest asserts too.
    static let gpsVersion: [UInt8] = [2, 3, 0, 0]

    /// The JPEG's pixel size, for PixelXDimension and PixelYDimension.
    struct PixelSize: Equatable {
        var width: Int
        var height: Int
    }

    static func tiff(_ metadata: CaptureMetadata, pixelSize: PixelSize) -> [UInt8] {
        let exif = exifEntries(metadata, pixelSize: pixelSize)
        let gps = metadata.location.map(gpsEntries)
        // The sub-IFDs follow IFD0; their pointers have a fixed size, so IFD0's size is known before their offsets.
        func primary(exifAt: Int, gpsAt: Int?) -> IFD {
            var entries = [
                Entry.ascii(0x010F, metadata.make), .ascii(0x0110, metadata.model), .short(0x0112, UInt16(metadata.orientation)),
                .rationals(0x011A, [(72, 1)]), .rationals(0x011B, [(72, 1)]), .short(0x0128, 2),  // 72 dpi, the customary default
                .short(0x0213, 1),  // YCbCrPositioning: centred, as JPEG's chroma is
            ]
            if let software = metadata.software { entries.append(.ascii(0x0131, software)) }
            entries.append(.long(0x8769, UInt32(exifAt)))
            if let gpsAt { entries.append(.long(0x8825, UInt32(gpsAt))) }
            return IFD(entries: entries)
        }
        let header = 8
        let primarySize = primary(exifAt: 0, gpsAt: gps == nil ? nil : 0).size
        let exifAt = header + primarySize
        let gpsAt = exifAt + exif.size
        var out: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]  // "MM", 42, IFD0 at 8
        out += primary(exifAt: exifAt, gpsAt: gps == nil ? nil : gpsAt).encoded(at: header)
        out += exif.encoded(at: exifAt)
        if let gps { out += gps.encoded(at: gpsAt) }
        return out
    }

    private static func exifEntries(_ m: CaptureMetadata, pixelSize: PixelSize) -> IFD {
        var entries = [
            Entry(tag: 0x9000, type: .undefined, count: 4, value: Array("0232".utf8)),  // ExifVersion
            .ascii(0x9003, Timestamps.exifDateTime(m.captureTime, in: m.timeZone)),
            .ascii(0x9011, Timestamps.offset(of: m.captureTime, in: m.timeZone)),
            .ascii(0x9291, String(cFormat: "%03d", Timestamps.milliseconds(of: m.captureTime))),
            Entry(tag: 0x9101, type: .undefined, count: 4, value: [1, 2, 3, 0]),  // ComponentsConfiguration: Y, Cb, Cr (JPEG)
            Entry(tag: 0xA000, type: .undefined, count: 4, value: Array("0100".utf8)),  // FlashpixVersion
            .short(0xA001, 1),  // ColorSpace: sRGB, what cameras deliver and lensd encodes
            .long(0xA002, UInt32(clamping: pixelSize.width)), .long(0xA003, UInt32(clamping: pixelSize.height)),
        ]
        if let zoom = m.digitalZoomRatio { entries.append(.rationals(0xA404, [(zoom, 100)])) }
        return IFD(entries: entries)
    }

    private static func gpsEntries(_ fix: GeoLocation) -> IFD {
        let latitude = RoundedCoordinate(fix.latitude), longitude = RoundedCoordinate(fix.longitude)
        var entries = [
            Entry(tag: 0x0000, type: .byte, count: 4, value: gpsVersion),
            .ascii(0x0001, latitude.isNegative ? "S" : "N"), coordinate(0x0002, latitude),
            .ascii(0x0003, longitude.isNegative ? "W" : "E"), coordinate(0x0004, longitude),
        ]
        if let altitude = fix.altitude {
            entries.append(Entry(tag: 0x0005, type: .byte, count: 1, value: [altitude < 0 ? 1 : 0]))
            entries.append(.rationals(0x0006, [(abs(altitude), 100)]))
        }
        let time = Timestamps.utcTimeOfDay(fix.fixTime)
        entries.append(.rationals(0x0007, [(Double(time.hour), 1), (Double(time.minute), 1),
                                           (Double(time.second) + Double(time.milliseconds) / 1000, 1000)]))
        if fix.isDeclared {
            // Character code "ASCII" padded to 8 bytes, then the text (no terminator).
            entries.append(Entry(tag: 0x001B, type: .undefined, count: 14, value: Array("ASCII\0\0\0MANUAL".utf8)))
        }
        entries.append(.ascii(0x001D, Timestamps.exifDateUTC(fix.fixTime)))
        entries.append(.rationals(0x001F, [(fix.horizontalError, 100)]))
        return IFD(entries: entries)
    }

    /// Degrees, minutes (to a millionth) and zero seconds: exactly the manifest's "DDD,MM.mmmmmmK".
    private static func coordinate(_ tag: UInt16, _ value: RoundedCoordinate) -> Entry {
        var bytes: [UInt8] = []
        for (numerator, denominator) in [(value.degrees, 1), (value.microMinutes, 1_000_000), (0, 1)] {
            bytes.appendBigEndian(UInt32(numerator))
            bytes.appendBigEndian(UInt32(denominator))
        }
        return Entry(tag: tag, type: .rational, count: 3, value: bytes)
    }

    enum FieldType: UInt16 {
        case byte = 1, ascii = 2, short = 3, long = 4, rational = 5, undefined = 7
    }

    struct Entry {
        var tag: UInt16
        var type: FieldType
        var count: Int
        /// The value's bytes, big-endian; up to 4 sit in the entry, longer ones after the IFD.
        var value: [UInt8]

        /// NUL-terminated; a NUL inside the text would end it early, so none is written.
        static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8).filter { $0 != 0 } + [0]
            return Entry(tag: tag, type: .ascii, count: bytes.count, value: bytes)
        }

        static func short(_ tag: UInt16, _ value: UInt16) -> Entry {
            var bytes: [UInt8] = []
            bytes.appendBigEndian(value)
            return Entry(tag: tag, type: .short, count: 1, value: bytes)
        }

        static func long(_ tag: UInt16, _ value: UInt32) -> Entry {
            var bytes: [UInt8] = []
            bytes.appendBigEndian(value)
            return Entry(tag: tag, type: .long, count: 1, value: bytes)
        }

        /// Unsigned rationals of the values rounded as `MetadataAssertion.rational` rounds them.
        static func rationals(_ tag: UInt16, _ values: [(value: Double, denominator: Int)]) -> Entry {
            var bytes: [UInt8] = []
            for (value, denominator) in values {
                bytes.appendBigEndian(UInt32(clamping: MetadataAssertion.numerator(value, denominator: denominator)))
                bytes.appendBigEndian(UInt32(denominator))
            }
            return Entry(tag: tag, type: .rational, count: values.count, value: bytes)
        }
    }

    /// One image file directory: entries in ascending tag order, no next IFD, the longer values
    /// right after it (each at an even offset).
    struct IFD {
        var entries: [Entry]

        private var tableSize: Int { 2 + 12 * entries.count + 4 }
        var size: Int { tableSize + entries.reduce(0) { $0 + Self.outOfLine($1) } }

        private static func outOfLine(_ entry: Entry) -> Int {
            entry.value.count > 4 ? (entry.value.count + 1) & ~1 : 0
        }

        /// The IFD as it reads at `offset` from the TIFF header.
        func encoded(at offset: Int) -> [UInt8] {
            var table: [UInt8] = [], data: [UInt8] = []
            table.appendBigEndian(UInt16(entries.count))
            for entry in entries.sorted(by: { $0.tag < $1.tag }) {
                table.appendBigEndian(entry.tag)
                table.appendBigEndian(entry.type.rawValue)
                table.appendBigEndian(UInt32(entry.count))
                if entry.value.count <= 4 {
                    table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    table.appendBigEndian(UInt32(offset + tableSize + data.count))
                    data += entry.value
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            table.appendBigEndian(UInt32(0))  // no next IFD
            return table + data
        }
    }
}
