/// Thumbnails: small JPEGs for the InitialCaptureFinished signal, made right after capture.
extension JPEGCodec {
    /// The thumbnail path for camera JPEGs (MJPEG frames). TurboJPEG's DCT scaling decodes at the
    /// smallest scale whose long side is still >= maxSide, then a box downscale lands exactly on
    /// maxSide, so thumbnails come out the same size as from raw frames. (Decoding at the largest
    /// scale <= maxSide instead saves about 1 ms at 1080p but yields 240×135 for maxSide 320.)
    /// Images already within maxSide keep their size.
    public static func thumbnail(fromJPEG jpeg: [UInt8], maxSide: Int, quality: Int) throws -> [UInt8] {
        guard maxSide >= 1 else { throw ImagingError("thumbnail side \(maxSide) is not positive") }
        let decoded = try TurboJPEG.withDecompressor { handle in
            let full = try TurboJPEG.header(of: jpeg, handle)
            let size = TurboJPEG.downscaledSizes(width: full.width, height: full.height)
                .last { max($0.width, $0.height) >= maxSide } ?? full
            return (rgb: try TurboJPEG.decodeRGB(jpeg, width: size.width, height: size.height, handle), size: size)
        }
        return try decoded.rgb.withUnsafeBytes {
            try thumbnail(rgb: $0, width: decoded.size.width, height: decoded.size.height, maxSide: maxSide, quality: quality)
        }
    }

    /// The thumbnail path for raw frames: box-downscales packed RGB to fit maxSide (aspect kept;
    /// smaller images keep their size) and encodes. About 1–3 ms from 1080p.
    public static func thumbnail(rgb: UnsafeRawBufferPointer, width: Int, height: Int, maxSide: Int, quality: Int) throws -> [UInt8] {
        try checkRGB(rgb, width: width, height: height)
        guard maxSide >= 1 else { throw ImagingError("thumbnail side \(maxSide) is not positive") }
        let size = BoxDownscale.fittingSize(width: width, height: height, maxSide: maxSide)
        if size == (width, height) {
            return try encode(rgb: rgb, width: width, height: height, quality: quality)
        }
        let small = BoxDownscale.downscale(rgb, width: width, height: height, toWidth: size.width, height: size.height)
        return try small.withUnsafeBytes { try encode(rgb: $0, width: size.width, height: size.height, quality: quality) }
    }
}
