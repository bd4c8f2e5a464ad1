/// A frame as the camera delivers it for video; the buffers are valid only inside the closure
/// it is handed to (Camera.withNextVideoFrame): they are the camera's own, reused for the next frame.
public struct VideoFrame {
    public enum Pixels {
        /// Packed RGB24, full range, rows of width × 3 bytes.
        case rgb(UnsafeRawBufferPointer)
        /// A camera's MJPEG frame, ending at its EOI.
        case jpeg(UnsafeRawBufferPointer)
    }

    public var pixels: Pixels
    public var width: Int
    public var height: Int
    /// Seconds, monotonic: the device's buffer time (V4L2 timestamp) or the synthetic frame time.
    /// Only differences mean something; a gap of several frame intervals is frames the camera dropped.
    public var timestamp: Double
    public var sequence: UInt64

    public init(pixels: Pixels, width: Int, height: Int, timestamp: Double, sequence: UInt64) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.timestamp = timestamp
        self.sequence = sequence
    }
}
