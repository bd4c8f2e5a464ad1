import CTurboJPEG

/// JPEG encoding and decoding through TurboJPEG. Packed RGB means 3 bytes per pixel, row-major,
/// no row padding. Every call is independent and may run on any thread.
public enum JPEGCodec {
    /// Encodes packed RGB with 4:2:0 subsampling at `quality` 1...100.
    public static func encode(rgb: UnsafeRawBufferPointer, width: Int, height: Int, quality: Int) throws -> [UInt8] {
        try checkRGB(rgb, width: width, height: height)
        guard (1...100).contains(quality) else { throw ImagingError("JPEG quality \(quality) is outside 1...100") }
        return try TurboJPEG.withCompressor { handle in
            // TurboJPEG allocates the output: an exact-size copy beats holding a worst-case buffer.
            var jpeg: UnsafeMutablePointer<UInt8>? = nil
            var size: UInt = 0
            defer { tjFree(jpeg) }
            let status = tjCompress2(handle, rgb.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                     Int32(width), 0, Int32(height), TurboJPEG.pixelFormatRGB,
                                     &jpeg, &size, TurboJPEG.subsampling420, Int32(quality), 0)
            guard status == 0, let jpeg else { throw TurboJPEG.error("encode JPEG", handle) }
            return Array(UnsafeBufferPointer(start: jpeg, count: Int(size)))
        }
    }

    /// Width and height from the JPEG header, without decoding (tjDecompressHeader3).
    public static func dimensions(ofJPEG jpeg: [UInt8]) throws -> (width: Int, height: Int) {
        try TurboJPEG.withDecompressor { try TurboJPEG.header(of: jpeg, $0) }
    }

    /// Decodes to packed RGB at full size (used by tests and by analysis of frames).
    public static func decodeRGB(_ jpeg: [UInt8]) throws -> (rgb: [UInt8], width: Int, height: Int) {
        try TurboJPEG.withDecompressor { handle in
            let size = try TurboJPEG.header(of: jpeg, handle)
            return (try TurboJPEG.decodeRGB(jpeg, width: size.width, height: size.height, handle), size.width, size.height)
        }
    }

    package static func checkRGB(_ rgb: UnsafeRawBufferPointer, width: Int, height: Int) throws {
        guard (1...TurboJPEG.maximumSide).contains(width), (1...TurboJPEG.maximumSide).contains(height) else {
            throw ImagingError("image size \(width)×\(height) is outside 1...\(TurboJPEG.maximumSide) per side")
        }
        guard rgb.count >= width * height * 3 else {
            throw ImagingError("\(rgb.count) bytes cannot hold \(width)×\(height) packed RGB")
        }
    }
}
