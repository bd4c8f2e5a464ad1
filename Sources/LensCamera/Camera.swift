/// A camera device. Not thread-safe: the caller confines each instance to one capture thread
/// (never the bus thread, since capturePhoto blocks) and publishes `state` copies from there.
public protocol Camera: AnyObject {
    var state: CameraState { get }
    /// Claims the device (and starts streaming if it streams).
    func open() throws
    /// Releases the device; idempotent.
    func close()
    /// Blocks until the next frame and returns it encoded; requires open().
    func capturePhoto() throws -> CapturedPhoto
    /// Blocks until the next frame (paced at the camera's rate) and hands it to `body`; requires open().
    /// The frame's buffers go back to the camera when `body` returns.
    func withNextVideoFrame<T>(_ body: (VideoFrame) throws -> T) throws -> T
    /// Frames per second the open device streams at (nil when closed/unknown).
    var videoFrameRate: Double? { get }
    /// The size of the frames withNextVideoFrame delivers (nil when closed).
    var videoFrameSize: (width: Int, height: Int)? { get }
    /// Absolute zoom. NaN, infinity or < 1 throw invalidArgument; larger than maxZoomFactor is
    /// clamped. Returns the factor in effect.
    @discardableResult func setZoom(_ factor: Double) throws -> Double
    /// Focuses at a normalized point (0...1 on both axes, else invalidArgument) and returns the
    /// point used; focusFailed where the device cannot focus.
    func focus(atX x: Double, y: Double) throws -> (x: Double, y: Double)
    /// Unsupported when hasFlash is false; invalidArgument when not in supportedFlashModes.
    func setFlashMode(_ mode: FlashMode) throws
    /// What the open device streams, for the log (e.g. "640x480 RGB3 at 25 fps"); nil if closed.
    var streamSummary: String? { get }
    /// False once the device is gone or its stream broke; polled for hot-plug (every second,
    /// on the camera's thread), so it must be cheap.
    var isConnected: Bool { get }
}

extension Camera {
    public var streamSummary: String? { nil }
    public var isConnected: Bool { true }
}
