/// Test-side JPEG surgery, independent of the code under test.
public enum JPEGSegments {
    /// The JPEG without the APP11 segments lensd adds (JPEG XT "JP", box instance 0x0211): what
    /// the signer started from. Other APP11 segments stay. Segments are walked up to SOS; the
    /// entropy-coded data after it is kept whole. Also returns how many segments were removed.
    public static func removingC2PASegments(_ jpeg: [UInt8]) throws -> (jpeg: [UInt8], removed: Int) {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw TestToolError("not a JPEG (no SOI)") }
        var kept: [UInt8] = [0xFF, 0xD8]
        var removed = 0
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { throw TestToolError("no marker at offset \(i)") }
            if jpeg[i + 1] == 0xDA { break }
            let end = i + 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
            guard end <= jpeg.count else { throw TestToolError("segment at offset \(i) runs past the end") }
            let isLensdStore = jpeg[i + 1] == 0xEB && end - i >= 8
                && Array(jpeg[(i + 4)..<(i + 8)]) == [0x4A, 0x50, 0x02, 0x11]
            if isLensdStore { removed += 1 } else { kept += jpeg[i..<end] }
            i = end
        }
        return (kept + jpeg[i...], removed)
    }
}

public extension JPEGSegments {
    /// The JPEG without its APP1 Exif and XMP segments (those lensd writes before signing: a
    /// camera frame that had its own would lose them too). Segments are walked up to SOS.
    static func removingMetadataSegments(_ jpeg: [UInt8]) throws -> [UInt8] {
        let signatures = [Array("Exif\0\0".utf8), Array("http://ns.adobe.com/xap/1.0/\0".utf8)]
        let metadata = try header(jpeg).filter { segment in
            segment.marker == 0xE1 && signatures.contains { jpeg[(segment.range.lowerBound + 4)...].starts(with: $0) }
        }
        var kept = jpeg
        for segment in metadata.reversed() { kept.removeSubrange(segment.range) }
        return kept
    }

    /// One header segment: its marker byte (0xE1 for APP1) and where it lies, marker included.
    struct Segment: Equatable {
        public let marker: UInt8
        public let range: Range<Int>
    }

    /// The header's segments in file order, SOI excluded, up to SOS.
    static func header(_ jpeg: [UInt8]) throws -> [Segment] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw TestToolError("not a JPEG (no SOI)") }
        var segments: [Segment] = []
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i + 1] != 0xDA {
            guard jpeg[i] == 0xFF else { throw TestToolError("no marker at offset \(i)") }
            let end = i + 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
            guard end <= jpeg.count else { throw TestToolError("segment at offset \(i) runs past the end") }
            segments.append(Segment(marker: jpeg[i + 1], range: i..<end))
            i = end
        }
        return segments
    }
}
