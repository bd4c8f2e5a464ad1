import CTurboJPEG

/// Digital zoom on a camera's JPEG without re-encoding it: tjTransform cuts whole DCT blocks
/// out of the file, so every pixel of the result is one the camera encoded, at its quality.
extension JPEGCodec {
    /// The centred 1/factor of the image, at that smaller size (nothing is scaled back up). The
    /// crop's corner must fall on an MCU boundary, so the region sits up to one MCU left of and
    /// above the exact centre; its size, and so the zoom ratio, is exact. Throws when TurboJPEG
    /// cannot cut that region exactly.
    public static func losslessCentreCrop(_ jpeg: [UInt8], factor: Double) throws -> (jpeg: [UInt8], width: Int, height: Int) {
        guard factor.isFinite, factor >= 1 else { throw ImagingError("zoom factor \(factor) is not a finite number >= 1") }
        guard let handle = tjInitTransform() else { throw TurboJPEG.error("create a JPEG transformer", nil) }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0 else { throw TurboJPEG.error("read JPEG header", handle) }
        let mcuWidth = cturbojpeg_mcu_width(subsampling), mcuHeight = cturbojpeg_mcu_height(subsampling)
        guard mcuWidth > 0, mcuHeight > 0 else { throw ImagingError("JPEG subsampling \(subsampling) is not one TurboJPEG can crop") }

        let cropWidth = max(1, Int32((Double(width) / factor).rounded()))
        let cropHeight = max(1, Int32((Double(height) / factor).rounded()))
        var transform = tjtransform()
        transform.r = tjregion(x: (width - cropWidth) / 2 / mcuWidth * mcuWidth, y: (height - cropHeight) / 2 / mcuHeight * mcuHeight,
                               w: cropWidth, h: cropHeight)
        transform.op = Int32(TJXOP_NONE.rawValue)
        transform.options = TJXOPT_CROP
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { tjFree(output) }
        let transformed = jpeg.withUnsafeBufferPointer {
            tjTransform(handle, $0.baseAddress, UInt($0.count), 1, &output, &size, &transform, 0)
        }
        guard transformed == 0, let output else { throw TurboJPEG.error("crop JPEG", handle) }
        let cropped = Array(UnsafeBufferPointer(start: output, count: Int(size)))
        // TurboJPEG places MCUs by the subsampling it names, but crops on the file's real MCU grid:
        // where the sampling factors are written unusually (FFmpeg writes 4:2:2 as 2×2 luma and 1×2
        // chroma: 16×16 MCUs, not 16×8) it silently moves the corner up and grows the region.
        let made = try TurboJPEG.header(of: cropped, handle)
        guard made.width == Int(cropWidth), made.height == Int(cropHeight) else {
            throw ImagingError("crop JPEG: TurboJPEG cut \(made.width)×\(made.height), not \(cropWidth)×\(cropHeight) (its MCUs are larger than subsampling \(subsampling) has)")
        }
        return (cropped, Int(cropWidth), Int(cropHeight))
    }
}
