import LensCamera
import LensImaging
/// Camera pixels → the encoder's I420 (BT.601 matrix, limited range: Y 16...235, U/V 16...240).
/// Cameras and JPEGs deliver full range, and an H.264 stream without VUI range flags is read as
/// limited range, so the levels are converted here rather than flagged.
public enum PixelConversion {
    /// Packed RGB24 (full range) → I420 limited range, 2×2 chroma averaging. Odd sizes: drop the
    /// last row/column. `image` must be I420Image(width: width, height: height).
    public static func convert(rgb: UnsafeRawBufferPointer, width: Int, height: Int, into image: inout I420Image) {
        precondition(image.width == width & ~1 && image.height == height & ~1, "I420 image does not fit \(width)×\(height)")
        precondition(rgb.count >= width * height * 3, "\(rgb.count) bytes cannot hold \(width)×\(height) RGB")
        let source = rgb.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let rowBytes = width * 3, lumaWidth = image.width, chromaWidth = image.chromaWidth, chromaHeight = image.chromaHeight
        image.y.withUnsafeMutableBufferPointer { yPlane in
            image.u.withUnsafeMutableBufferPointer { uPlane in
                image.v.withUnsafeMutableBufferPointer { vPlane in
                    for chromaRow in 0..<chromaHeight {
                        let top = source + 2 * chromaRow * rowBytes, bottom = top + rowBytes
                        let yTop = yPlane.baseAddress! + 2 * chromaRow * lumaWidth, yBottom = yTop + lumaWidth
                        let chromaOffset = chromaRow * chromaWidth
                        for chromaColumn in 0..<chromaWidth {
                            let pixel = chromaColumn * 6, x = chromaColumn * 2
                            let r0 = Int32(top[pixel]), g0 = Int32(top[pixel + 1]), b0 = Int32(top[pixel + 2])
                            let r1 = Int32(top[pixel + 3]), g1 = Int32(top[pixel + 4]), b1 = Int32(top[pixel + 5])
                            let r2 = Int32(bottom[pixel]), g2 = Int32(bottom[pixel + 1]), b2 = Int32(bottom[pixel + 2])
                            let r3 = Int32(bottom[pixel + 3]), g3 = Int32(bottom[pixel + 4]), b3 = Int32(bottom[pixel + 5])
                            yTop[x] = luma(r0, g0, b0)
                            yTop[x + 1] = luma(r1, g1, b1)
                            yBottom[x] = luma(r2, g2, b2)
                            yBottom[x + 1] = luma(r3, g3, b3)
                            let red = r0 + r1 + r2 + r3, green = g0 + g1 + g2 + g3, blue = b0 + b1 + b2 + b3
                            uPlane[chromaOffset + chromaColumn] = chroma(red &* -9714 &+ green &* -19070 &+ blue &* 28784)
                            vPlane[chromaOffset + chromaColumn] = chroma(red &* 28784 &+ green &* -24103 &+ blue &* -4681)
                        }
                    }
                }
            }
        }
    }

    /// Converts a camera frame, whichever form it comes in; `image` must have the frame's size
    /// (rounded down to even). Throws ImagingError for a frame that does not fit or decode.
    public static func convert(_ frame: VideoFrame, into image: inout I420Image) throws {
        guard image.width == frame.width & ~1, image.height == frame.height & ~1 else {
            throw ImagingError("a \(frame.width)×\(frame.height) frame does not fit a \(image.width)×\(image.height) I420 image")
        }
        switch frame.pixels {
        case .rgb(let rgb):
            guard rgb.count >= frame.width * frame.height * 3 else {
                throw ImagingError("\(rgb.count) bytes cannot hold \(frame.width)×\(frame.height) RGB")
            }
            convert(rgb: rgb, width: frame.width, height: frame.height, into: &image)
        case .jpeg(let jpeg):
            try convert(jpeg: jpeg, into: &image)
        }
    }

    // BT.601 with limited-range scaling (219/255 for luma, 224/255 for chroma) in 16-bit fixed
    // point; each chroma row sums to zero, so grey stays exactly 128. Every sum stays below 2^25,
    // so Int32 with unchecked arithmetic is exact (and a fifth faster than checked Int).
    @inline(__always)
    private static func luma(_ red: Int32, _ green: Int32, _ blue: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: 16 + (red &* 16829 &+ green &* 33039 &+ blue &* 6416 &+ 32768) >> 16)
    }

    /// From the weighted sum of four pixels (hence 2^18): 16...240 by construction.
    @inline(__always)
    private static func chroma(_ weightedSum: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: 128 + (weightedSum &+ 131_072) >> 18)
    }
}
