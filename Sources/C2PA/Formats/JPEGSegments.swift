import LensSystem
/// The marker segments of a JPEG header, from SOI up to (not including) the first SOS.
struct JPEGSegment {
    /// The marker byte after 0xFF, e.g. 0xE0 for APP0.
    var marker: UInt8
    /// File offset of the 0xFF that starts the segment.
    var offset: Int
    /// Bytes after the 2-byte length field.
    var payload: Range<Int>
    var end: Int { payload.upperBound }

    static let startOfImage: UInt8 = 0xD8
    static let startOfScan: UInt8 = 0xDA
    static let app0: UInt8 = 0xE0
    static let app11: UInt8 = 0xEB

    /// Scans the header segments of untrusted bytes. `bytes` may be just the file's beginning:
    /// scanning stops at SOS, and `complete` says whether it was reached.
    static func scanHeader(_ bytes: UnsafeRawBufferPointer) throws -> (segments: [JPEGSegment], complete: Bool) {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == startOfImage else {
            throw C2PAError.unsupported("not a JPEG (no SOI marker)")
        }
        var segments: [JPEGSegment] = []
        var position = 2
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else {
                throw C2PAError.malformed("JPEG: expected a marker at offset \(position)")
            }
            var markerAt = position + 1
            while markerAt < bytes.count, bytes[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
            guard markerAt + 2 < bytes.count else { break }
            let marker = bytes[markerAt]
            if marker == startOfScan { return (segments, true) }
            guard marker != 0x00, marker != 0xD9, !(0xD0...0xD8).contains(marker), marker != 0x01 else {
                throw C2PAError.malformed(String(cFormat: "JPEG: unexpected marker FF%02X in the header", marker))
            }
            let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
            guard length >= 2 else { throw C2PAError.malformed("JPEG: segment length \(length) at offset \(position)") }
            let payloadStart = markerAt + 3
            let end = markerAt + 1 + length
            guard end <= bytes.count else { return (segments, false) }
            segments.append(JPEGSegment(marker: marker, offset: position, payload: payloadStart..<end))
            position = end
        }
        return (segments, false)
    }
}

/// JPEG XT (ISO 18477-3) APP11 segments carrying JUMBF: "JP", box instance En, sequence Z.
enum JPEGXT {
    static let commonIdentifier: [UInt8] = Array("JP".utf8)
    /// c2pa-rs's box instance number; readers group segments by it.
    static let boxInstance: UInt16 = 0x0211
    /// JUMBF bytes per segment: 65535 - 2 (length) - 2 (CI) - 2 (En) - 4 (Z) - 8 (repeated LBox/TBox).
    static let maximumChunk = 65_517
    static let defaultChunk = 65_000

    /// Total bytes of the APP11 segments that carry a store of `storeSize` bytes.
    static func segmentsLength(storeSize: Int, chunk: Int) -> Int {
        let count = max(1, (storeSize + chunk - 1) / chunk)
        // Each segment: marker 2 + length 2 + CI 2 + En 2 + Z 4; continuations repeat LBox/TBox (8).
        return storeSize + count * 12 + (count - 1) * 8
    }

    static func segments(store: [UInt8], chunk: Int) -> [UInt8] {
        precondition(store.count >= 8 && (1...maximumChunk).contains(chunk))
        let header = store[0..<8]
        var out: [UInt8] = []
        out.reserveCapacity(segmentsLength(storeSize: store.count, chunk: chunk))
        var sequence: UInt32 = 1
        for start in stride(from: 0, to: store.count, by: chunk) {
            let piece = store[start..<min(start + chunk, store.count)]
            let repeated = sequence == 1 ? 0 : 8
            out += [0xFF, JPEGSegment.app11]
            out.appendBigEndian(UInt16(2 + 2 + 2 + 4 + repeated + piece.count))
            out += commonIdentifier
            out.appendBigEndian(boxInstance)
            out.appendBigEndian(sequence)
            if repeated > 0 { out += header }
            out += piece
            sequence += 1
        }
        return out
    }

    /// Reassembles the C2PA manifest store from a header's APP11 segments, or nil when there is
    /// none. As c2pa-rs reads them: segments of one box instance are joined in file order, their
    /// sequence numbers must rise; a second store is an error, not a choice.
    static func manifestStore(in bytes: UnsafeRawBufferPointer, segments: [JPEGSegment]) throws
        -> (store: [UInt8], location: Range<Int>)?
    {
        var groups: [UInt16: (store: [UInt8], location: Range<Int>, sequence: UInt32)] = [:]
        for segment in segments where segment.marker == JPEGSegment.app11 && segment.payload.count >= 8 {
            let p = segment.payload.lowerBound
            guard bytes[p] == commonIdentifier[0], bytes[p + 1] == commonIdentifier[1] else { continue }
            let instance = UInt16(bytes[p + 2]) << 8 | UInt16(bytes[p + 3])
            let sequence = (4..<8).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[p + $1]) }
            let jumbf = (p + 8)..<segment.payload.upperBound
            if var group = groups[instance] {
                guard sequence > group.sequence, jumbf.count >= 8 else {
                    throw C2PAError.malformed("APP11 segment \(sequence) of the manifest store is out of order")
                }
                group.store += bytes[(jumbf.lowerBound + 8)..<jumbf.upperBound]
                group.location = group.location.lowerBound..<segment.end
                group.sequence = sequence
                groups[instance] = group
            } else if sequence == 1, isManifestStore(bytes, jumbf) {
                guard groups.isEmpty else { throw C2PAError.malformed("more than one manifest store") }
                groups[instance] = (Array(bytes[jumbf]), segment.offset..<segment.end, sequence)
            }
        }
        return groups.first.map { ($0.value.store, $0.value.location) }
    }

    /// A JUMBF superbox whose description type is `c2pa`.
    private static func isManifestStore(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard range.count >= 20 else { return false }
        let s = range.lowerBound
        return Array(bytes[(s + 4)..<(s + 8)]) == Array("jumb".utf8)
            && Array(bytes[(s + 16)..<(s + 20)]) == Array("c2pa".utf8)
    }
}

/// The APP1 segments that carry a photo's Exif block and XMP packet, as photo software looks for them.
enum JPEGMetadataSegments {
    static let app1: UInt8 = 0xE1
    static let exifIdentifier: [UInt8] = Array("Exif\0\0".utf8)
    static let xmpIdentifier: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    /// Exif first (readers expect it right after SOI/APP0), then XMP. `header`: the JPEG's header
    /// segments, whose frame header gives the pixel size.
    static func segments(for metadata: CaptureMetadata, jpeg: UnsafeRawBufferPointer, header: [JPEGSegment]) throws -> [UInt8] {
        guard let size = pixelSize(jpeg, header) else { throw C2PAError.malformed("JPEG has no frame header (SOF)") }
        return try segment(exifIdentifier + ExifWriter.tiff(metadata, pixelSize: size)) + segment(xmpIdentifier + XMPWriter.packet(metadata))
    }

    /// Width and height from the first SOFn (C0–CF but DHT C4, JPG C8, DAC CC): precision, height, width.
    static func pixelSize(_ jpeg: UnsafeRawBufferPointer, _ header: [JPEGSegment]) -> ExifWriter.PixelSize? {
        guard let frame = header.first(where: { (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker) }),
              frame.payload.count >= 5 else { return nil }
        let p = frame.payload.lowerBound
        return ExifWriter.PixelSize(width: Int(jpeg[p + 3]) << 8 | Int(jpeg[p + 4]), height: Int(jpeg[p + 1]) << 8 | Int(jpeg[p + 2]))
    }

    private static func segment(_ payload: [UInt8]) throws -> [UInt8] {
        guard payload.count <= 0xFFFF - 2 else {
            throw C2PAError.unsupported("the photo's metadata takes \(payload.count) bytes, more than one APP1 segment holds")
        }
        var out: [UInt8] = [0xFF, app1]
        out.appendBigEndian(UInt16(payload.count + 2))
        return out + payload
    }
}
