import CTurboJPEG

/// Reading a JPEG's size and decoding it to packed RGB, on a decompressor the caller holds.
extension TurboJPEG {
    /// Decoding more than this many pixels is refused: the size comes from the file, and a
    /// forged header must not make the daemon allocate gigabytes. (8K is 33 Mpx.)
    package static let maximumDecodedPixels = 50_000_000
    /// Caps progressive scans at 500, so a hostile progressive JPEG cannot burn minutes of CPU.
    package static let decodeFlags = Int32(TJFLAG_LIMITSCANS)

    package static func header(of jpeg: [UInt8], _ handle: tjhandle) throws -> (width: Int, height: Int) {
        let header = try jpeg.withUnsafeBytes { try self.header(of: $0, handle) }
        return (header.width, header.height)
    }

    /// The header with the TJSAMP_* subsampling and TJCS_* colour space.
    package static func header(of jpeg: UnsafeRawBufferPointer, _ handle: tjhandle) throws
        -> (width: Int, height: Int, subsampling: Int32, colorspace: Int32) {
        guard let bytes = jpeg.baseAddress, !jpeg.isEmpty else { throw ImagingError("read JPEG header: no data") }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(handle, bytes.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                         &width, &height, &subsampling, &colorspace)
        guard status == 0 else { throw error("read JPEG header", handle) }
        guard width > 0, height > 0 else { throw ImagingError("read JPEG header: size \(width)×\(height)") }
        return (Int(width), Int(height), subsampling, colorspace)
    }

    /// The sizes DCT-scaled decoding produces for a width×height image, at most 1:1 (thumbnails
    /// never upscale), largest first.
    package static func downscaledSizes(width: Int, height: Int) -> [(width: Int, height: Int)] {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [(width, height)] }
        return UnsafeBufferPointer(start: factors, count: Int(count))
            .filter { $0.num <= $0.denom }
            .map { (Int(cturbojpeg_scaled(Int32(width), $0)), Int(cturbojpeg_scaled(Int32(height), $0))) }
            .sorted { $0.width > $1.width }
    }

    /// Decodes at the full size or at one of `downscaledSizes`. Warnings fail too: a frame
    /// libjpeg had to patch up (truncated, corrupt data) is not one to sign or to show.
    package static func decodeRGB(_ jpeg: [UInt8], width: Int, height: Int, _ handle: tjhandle) throws -> [UInt8] {
        guard width * height <= maximumDecodedPixels else {
            throw ImagingError("decode JPEG: \(width)×\(height) exceeds \(maximumDecodedPixels) pixels")
        }
        return try [UInt8](unsafeUninitializedCapacity: width * height * 3) { rgb, initialized in
            let status = jpeg.withUnsafeBufferPointer {
                tjDecompress2(handle, $0.baseAddress, UInt($0.count), rgb.baseAddress,
                              Int32(width), 0, Int32(height), pixelFormatRGB, decodeFlags)
            }
            guard status == 0 else { throw error("decode JPEG", handle) }
            initialized = rgb.count
        }
    }
}
