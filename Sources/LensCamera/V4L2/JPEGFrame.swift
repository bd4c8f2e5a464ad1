import LensImaging
/// A camera's JPEG as it sits in a V4L2 buffer: drivers may report the whole buffer as used
/// (v4l2loopback's first frame: the JPEG plus zero padding), so the image ends at its EOI.
enum JPEGFrame {
    static func trimmed(_ bytes: UnsafeRawBufferPointer) throws -> [UInt8] {
        Array(bytes[..<(try trimmedCount(bytes))])
    }

    /// The JPEG's length in the buffer: through its last EOI.
    static func trimmedCount(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw ImagingError("the camera's frame is not a JPEG (no SOI)")
        }
        // The last FF D9: an embedded EXIF thumbnail has its own EOI earlier on.
        var end = bytes.count - 1
        while end > 2, !(bytes[end - 1] == 0xFF && bytes[end] == 0xD9) { end -= 1 }
        guard end > 2 else { throw ImagingError("the camera's JPEG has no EOI (truncated frame)") }
        return end + 1
    }
}
