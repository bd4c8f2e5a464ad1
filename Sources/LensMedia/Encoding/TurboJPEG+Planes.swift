import CTurboJPEG
import LensImaging

/// Decoding a JPEG to its own Y, Cb, Cr planes (tjDecompressToYUVPlanes), without colour
/// conversion: the start of the MJPEG → H.264 path.
extension TurboJPEG {
    /// The planes back to back in one buffer.
    struct Planes {
        struct Plane {
            var offset: Int
            var stride: Int
        }

        var bytes: [UInt8]
        var planes: [Plane]
    }

    /// One plane for a greyscale JPEG, three otherwise, each at TurboJPEG's plane size for the
    /// subsampling (luma padded to whole chroma samples). Warnings fail, as in decodeRGB.
    static func decodePlanes(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int, subsampling: Int32,
                             _ handle: tjhandle) throws -> Planes {
        var planes: [Planes.Plane] = []
        var size = 0
        for component in 0..<(subsampling == Int32(TJSAMP_GRAY.rawValue) ? 1 : 3) {
            let stride = Int(tjPlaneWidth(Int32(component), Int32(width), subsampling))
            let rows = Int(tjPlaneHeight(Int32(component), Int32(height), subsampling))
            guard stride > 0, rows > 0 else { throw ImagingError("decode JPEG: no plane sizes for subsampling \(subsampling)") }
            planes.append(Planes.Plane(offset: size, stride: stride))
            size += stride * rows
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            var pointers: [UnsafeMutablePointer<UInt8>?] = planes.map { buffer.baseAddress! + $0.offset }
            return tjDecompressToYUVPlanes(handle, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                           &pointers, Int32(width), nil, Int32(height), decodeFlags)
        }
        guard status == 0 else { throw error("decode JPEG", handle) }
        return Planes(bytes: bytes, planes: planes)
    }
}
