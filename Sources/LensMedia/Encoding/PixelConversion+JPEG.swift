import CTurboJPEG
import LensImaging

/// JPEG (MJPEG camera frames) → I420. TurboJPEG decodes straight to the file's own Y/Cb/Cr
/// planes, skipping the colour conversion to RGB and back; what remains is resampling the
/// chroma to 4:2:0 and mapping JFIF's full range to limited range through tables.
extension PixelConversion {
    /// Any baseline JPEG (4:2:0, 4:2:2, 4:4:0, 4:4:4, grey; full range JFIF) → I420 limited
    /// range. Other layouts (4:1:1, RGB or CMYK colour spaces) are decoded through RGB. The JPEG's
    /// size rounded down to even must be `image`'s size; a JPEG that does not fit or does not
    /// decode cleanly (corrupt, truncated) throws ImagingError.
    public static func convert(jpeg: UnsafeRawBufferPointer, into image: inout I420Image) throws {
        try TurboJPEG.withDecompressor { handle in
            let header = try TurboJPEG.header(of: jpeg, handle)
            guard header.width & ~1 == image.width, header.height & ~1 == image.height else {
                throw ImagingError("a \(header.width)×\(header.height) JPEG does not fit a \(image.width)×\(image.height) I420 image")
            }
            guard header.width * header.height <= TurboJPEG.maximumDecodedPixels else {
                throw ImagingError("decode JPEG: \(header.width)×\(header.height) exceeds \(TurboJPEG.maximumDecodedPixels) pixels")
            }
            guard let layout = PlaneLayout(subsampling: header.subsampling, colorspace: header.colorspace) else {
                let rgb = try TurboJPEG.decodeRGB(Array(jpeg), width: header.width, height: header.height, handle)
                return rgb.withUnsafeBytes { convert(rgb: $0, width: header.width, height: header.height, into: &image) }
            }
            let planes = try TurboJPEG.decodePlanes(jpeg, width: header.width, height: header.height,
                                                    subsampling: header.subsampling, handle)
            let chromaWidth = image.chromaWidth, chromaHeight = image.chromaHeight
            planes.bytes.withUnsafeBufferPointer { bytes in
                copyLuma(bytes, planes.planes[0], into: &image)
                if layout.isGrey {
                    image.u.withUnsafeMutableBufferPointer { $0.update(repeating: 128) }
                    image.v.withUnsafeMutableBufferPointer { $0.update(repeating: 128) }
                } else {
                    resampleChroma(bytes, planes.planes[1], layout: layout, into: &image.u, width: chromaWidth, height: chromaHeight)
                    resampleChroma(bytes, planes.planes[2], layout: layout, into: &image.v, width: chromaWidth, height: chromaHeight)
                }
            }
        }
    }

    /// How many chroma samples of the JPEG one I420 chroma sample (2×2 luma) covers.
    private struct PlaneLayout {
        var columns: Int, rows: Int
        var isGrey: Bool

        /// nil where TurboJPEG's planes are not Y/Cb/Cr at 1 or 2 samples per 2 pixels.
        init?(subsampling: Int32, colorspace: Int32) {
            if subsampling == Int32(TJSAMP_GRAY.rawValue) {
                guard colorspace == Int32(TJCS_GRAY.rawValue) else { return nil }
                (columns, rows, isGrey) = (0, 0, true)
                return
            }
            guard colorspace == Int32(TJCS_YCbCr.rawValue) else { return nil }
            // MCU sides are 8 pixels per chroma sample: 8 unsubsampled, 16 for 2:1, 32 for 4:1.
            let horizontal = Int(cturbojpeg_mcu_width(subsampling)) / 8, vertical = Int(cturbojpeg_mcu_height(subsampling)) / 8
            guard (1...2).contains(horizontal), (1...2).contains(vertical) else { return nil }
            (columns, rows, isGrey) = (2 / horizontal, 2 / vertical, false)
        }
    }

    /// JFIF luma 0...255 → 16...235.
    private static let lumaLevels: [UInt8] = (0...255).map { UInt8(16 + ($0 * 219 + 127) / 255) }

    /// JFIF chroma summed over four samples (0...1020) → their mean mapped to 16...240.
    private static let chromaLevels: [UInt8] = (0...1020).map { sum in
        let scaled = (sum - 512) * 224   // the mean's offset from 128, × 4 × 255
        return UInt8(128 + (scaled + (scaled >= 0 ? 510 : -510)) / 1020)
    }

    private static func copyLuma(_ bytes: UnsafeBufferPointer<UInt8>, _ plane: TurboJPEG.Planes.Plane, into image: inout I420Image) {
        let width = image.width, height = image.height, source = UnsafeBufferPointer(rebasing: bytes[plane.offset...])
        lumaLevels.withUnsafeBufferPointer { levels in
            image.y.withUnsafeMutableBufferPointer { luma in
                for row in 0..<height {
                    let from = row * plane.stride, to = row * width
                    for x in 0..<width { luma[to + x] = levels[Int(source[from + x])] }
                }
            }
        }
    }

    /// Averages the chroma samples under each 2×2 block of pixels into a width×height plane.
    private static func resampleChroma(_ bytes: UnsafeBufferPointer<UInt8>, _ plane: TurboJPEG.Planes.Plane, layout: PlaneLayout,
                                       into output: inout [UInt8], width: Int, height: Int) {
        let source = UnsafeBufferPointer(rebasing: bytes[plane.offset...])
        chromaLevels.withUnsafeBufferPointer { levels in
            output.withUnsafeMutableBufferPointer { chroma in
                for row in 0..<height {
                    let top = row * layout.rows * plane.stride, bottom = top + (layout.rows - 1) * plane.stride
                    for x in 0..<width {
                        let left = x * layout.columns, right = left + layout.columns - 1
                        // Where a side is not subsampled the indices repeat, so the sum always
                        // holds four samples.
                        let sum = Int(source[top + left]) + Int(source[top + right]) + Int(source[bottom + left]) + Int(source[bottom + right])
                        chroma[row * width + x] = levels[sum]
                    }
                }
            }
        }
    }
}
