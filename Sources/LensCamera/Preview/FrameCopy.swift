import FoundationEssentials
import LensImaging

/// A camera frame copied off the camera's buffers, so that the preview's thread can work on it
/// after the camera thread has moved on. The buffer is reused from frame to frame (the
/// preview), or kept whole as the frame to sign (face auto-capture).
public struct FrameCopy: Sendable {
    public enum Kind: Sendable { case rgb, jpeg }

    public var kind = Kind.rgb
    public var bytes: [UInt8] = []
    public var width = 0
    public var height = 0
    public var timestamp = 0.0
    public var sequence: UInt64 = 0
    /// When the camera thread handed the frame over (for the latency lens-bench reports).
    public var offeredAt = ContinuousClock.now
    /// The same moment on the wall clock: a photo made of this frame was taken then.
    public var offeredDate = Date()

    public init() {}

    public mutating func copy(_ frame: VideoFrame) {
        let source: UnsafeRawBufferPointer
        switch frame.pixels {
        case .rgb(let pixels): (kind, source) = (.rgb, pixels)
        case .jpeg(let jpeg): (kind, source) = (.jpeg, jpeg)
        }
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: source)
        (width, height, timestamp, sequence, offeredAt, offeredDate) = (frame.width, frame.height, frame.timestamp, frame.sequence, .now, Date())
    }

    /// Packed RGB of exactly `width`×`height` (at most the frame's size): raw frames are
    /// box-downscaled; camera JPEGs are decoded at the smallest DCT scale (1/2, 1/4, 1/8) that is
    /// still at least that large, then box-downscaled the rest of the way.
    public func scaledRGB(width outWidth: Int, height outHeight: Int) throws -> [UInt8] {
        guard width >= outWidth, height >= outHeight else {
            throw ImagingError("a \(width)×\(height) frame cannot make a \(outWidth)×\(outHeight) preview")
        }
        switch kind {
        case .rgb:
            if (outWidth, outHeight) == (width, height) { return bytes }
            return try bytes.withUnsafeBytes {
                try JPEGCodec.checkRGB($0, width: width, height: height)
                return BoxDownscale.downscale($0, width: width, height: height, toWidth: outWidth, height: outHeight)
            }
        case .jpeg:
            let decoded = try TurboJPEG.withDecompressor { handle in
                let full = try bytes.withUnsafeBytes { try TurboJPEG.header(of: $0, handle) }
                guard full.width >= outWidth, full.height >= outHeight else {
                    throw ImagingError("a \(full.width)×\(full.height) JPEG cannot make a \(outWidth)×\(outHeight) preview")
                }
                let size = TurboJPEG.downscaledSizes(width: full.width, height: full.height)
                    .last { $0.width >= outWidth && $0.height >= outHeight } ?? (full.width, full.height)
                return (rgb: try TurboJPEG.decodeRGB(bytes, width: size.width, height: size.height, handle), size: size)
            }
            if decoded.size == (outWidth, outHeight) { return decoded.rgb }
            return decoded.rgb.withUnsafeBytes {
                BoxDownscale.downscale($0, width: decoded.size.width, height: decoded.size.height,
                                       toWidth: outWidth, height: outHeight)
            }
        }
    }
}
