/// COM segments: text a JPEG carries that decoders skip (the preview's frame numbers).
extension JPEGCodec {
    /// `jpeg` with a COM segment holding `text` after its JFIF APP0 segment — or after the SOI
    /// when it has none — so the file stays a JFIF file, whose APP0 must come first.
    public static func inserting(comment text: String, into jpeg: [UInt8]) throws -> [UInt8] {
        let payload = Array(text.utf8)
        // The length field counts itself and is 16 bits.
        guard payload.count <= 65_533 else { throw ImagingError("a JPEG comment holds at most 65533 bytes") }
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw ImagingError("not a JPEG (no SOI)") }
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0 {
            guard jpeg.count >= 6 else { throw ImagingError("the JPEG ends inside its APP0 segment") }
            at = 4 + Int(jpeg[4]) << 8 + Int(jpeg[5])
            guard at <= jpeg.count else { throw ImagingError("the JPEG ends inside its APP0 segment") }
        }
        let length = payload.count + 2
        var out = [UInt8]()
        out.reserveCapacity(jpeg.count + length + 2)
        out += jpeg[..<at]
        out += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]
        out += payload
        out += jpeg[at...]
        return out
    }
}
