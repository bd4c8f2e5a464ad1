/// Digital zoom on a camera's JPEG, losslessly when TurboJPEG can.
extension JPEGCodec {
    public enum ZoomRoute: Sendable, Equatable {
        /// The camera's own DCT blocks, cut out (losslessCentreCrop): 1/factor of the frame's size.
        case losslessCrop
        /// Decoded, zoomed as a raw frame is (the centre scaled back to the frame's size) and
        /// encoded again.
        case reencoded
    }

    /// The lossless crop is preferred: the photo then holds the camera's own bytes, at the
    /// camera's quality, so what is signed is what the camera made. Only when TurboJPEG cannot
    /// cut that crop exactly is the JPEG decoded, zoomed and encoded at `quality` — a zoomed
    /// photo is still taken rather than the capture failing.
    public static func digitalZoom(_ jpeg: [UInt8], factor: Double, quality: Int) throws
        -> (jpeg: [UInt8], width: Int, height: Int, route: ZoomRoute) {
        guard factor.isFinite, factor >= 1 else { throw ImagingError("zoom factor \(factor) is not a finite number >= 1") }
        if let crop = try? losslessCentreCrop(jpeg, factor: factor) { return (crop.jpeg, crop.width, crop.height, .losslessCrop) }
        let decoded = try decodeRGB(jpeg)
        let zoomed = decoded.rgb.withUnsafeBytes {
            DigitalZoom.cropAndScale($0, width: decoded.width, height: decoded.height, factor: factor)
        }
        let encoded = try zoomed.withUnsafeBytes { try encode(rgb: $0, width: decoded.width, height: decoded.height, quality: quality) }
        return (encoded, decoded.width, decoded.height, .reencoded)
    }
}
