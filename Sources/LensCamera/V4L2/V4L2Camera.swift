import CV4L2
import FoundationEssentials
import Glibc
import LensImaging
import LensSystem

/// A V4L2 capture device (see V4L2Discovery). Streams while open, so a photo is the next frame.
/// MJPEG at the requested size is preferred and the camera's JPEG is kept as it is (trimmed at
/// EOI); otherwise frames come as RGB24 (libv4l2 converts) and are encoded here. Zoom is the
/// device's when it has it, else a centre crop: of the JPEG itself, losslessly (the photo is
/// then smaller), or of raw frames before encoding. The flash is an LED-flash subdevice's
/// (V4L2Flash); video nodes have none, so without one the camera has no flash.
public final class V4L2Camera: Camera {
    public struct Settings: Sendable {
        public var width: Int
        public var height: Int
        /// Set explicitly: drivers keep their own default otherwise (vivid: 5 fps).
        public var frameRate: Double
        public var quality: Int

        public init(width: Int, height: Int, frameRate: Double, quality: Int) {
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.quality = quality
        }
    }

    /// What lensd asks for: a still should not wait long for its frame.
    public static let defaultFrameRate = 30.0
    /// A frame must arrive within this long; longer means the device stalled.
    static let frameTimeoutMilliseconds: Int32 = 3000

    public let description: CameraDescription
    public let settings: Settings
    /// The format and rate the device accepted at the last open(); nil before.
    public private(set) var format: V4L2Device.Format?
    public private(set) var frameRate: Double?
    /// The device's own formats when the accepted one is libv4l2's conversion (a YUYV-only
    /// webcam streams "RGB24"); empty when the device delivers the format itself.
    public private(set) var convertedFrom: [UInt32] = []

    private var device: V4L2Device?
    private var stream: V4L2Stream?
    private var controls: V4L2Controls?
    private var zoomFactor = 1.0
    /// Stays open while the camera exists: hasFlash and its availability show even when closed.
    private let flash: V4L2Flash?
    private var flashMode = FlashMode.off

    /// Looks for the camera's flash subdevice.
    public convenience init(_ description: CameraDescription, settings: Settings) {
        self.init(description, settings: settings, flash: V4L2Flash.find(forVideoNode: description.path))
    }

    /// `flash` is given directly by tests, on a fake device.
    init(_ description: CameraDescription, settings: Settings, flash: V4L2Flash?) {
        self.description = description
        self.settings = settings
        self.flash = flash
    }

    public var state: CameraState {
        CameraState(description: description, hasFlash: flash != nil, isFlashAvailable: flash?.isAvailable ?? false,
                    flashMode: flashMode, supportedFlashModes: flash == nil ? [] : V4L2Flash.supportedModes,
                    canZoom: true, zoomFactor: zoomFactor,
                    maxZoomFactor: controls?.maxZoomFactor ?? V4L2Controls.maxDigitalZoom,
                    digitalZoom: controls.map { $0.zoom == .digital } ?? true, canFocus: controls?.canFocus ?? false,
                    // Digital zoom crops photos; video frames are recorded as the device delivers them.
                    // A device lensd cannot tell is a physical sensor makes no capture claim.
                    isSynthetic: description.isVirtual, videoDigitalZoomRatio: nil,
                    zoomAppliesToVideo: controls.map { $0.zoom != .digital } ?? false)
    }

    public var streamSummary: String? {
        guard let format, stream != nil else { return nil }
        let rate = frameRate.map { "\($0) fps" } ?? "the driver's own rate"
        let summary = "\(format.width)x\(format.height) \(V4L2Device.fourccString(format.pixelFormat)) at \(rate)"
        guard !convertedFrom.isEmpty else { return summary }
        return summary + ", converted by libv4l2 from " + convertedFrom.map(V4L2Device.fourccString).joined(separator: " or ")
    }

    /// Streaming: the stream reports no error. Closed: the node opens (a driver that dropped
    /// the device refuses with ENODEV even while its /sys entry stays, as vivid's `disconnect`).
    public var isConnected: Bool {
        if let stream { return !stream.hasFailed }
        do {
            _ = try FileDescriptor.open(description.path, O_RDWR | O_NONBLOCK)
            return true
        } catch {
            // Only a missing device counts: EACCES or EBUSY must reach the client as such at open().
            return ![ENODEV, ENOENT, ENXIO].contains(error.errno.rawValue)
        }
    }

    public func open() throws {
        guard stream == nil else { return }
        do {
            let device = try V4L2Device(path: description.path)
            let nativeFormats = device.nativeFormats()
            let wantsJPEG = nativeFormats.contains { $0 == CV4L2_PIX_FMT_MJPEG || $0 == CV4L2_PIX_FMT_JPEG }
            var format = try device.setFormat(width: settings.width, height: settings.height,
                                              pixelFormat: wantsJPEG ? CV4L2_PIX_FMT_MJPEG : CV4L2_PIX_FMT_RGB24)
            // MJPEG only at the requested size; a smaller JPEG would be upscaled by nobody.
            if wantsJPEG, (format.width, format.height) != (settings.width, settings.height) || !isJPEG(format) {
                format = try device.setFormat(width: settings.width, height: settings.height, pixelFormat: CV4L2_PIX_FMT_RGB24)
            }
            guard isJPEG(format) || format.pixelFormat == CV4L2_PIX_FMT_RGB24 else {
                throw CameraError.failed("\(description.path) delivers neither MJPEG nor RGB24")
            }
            frameRate = try device.setFrameRate(settings.frameRate)
            let controls = try V4L2Controls(probing: device)
            // A zoom set while closed takes effect now (digital zoom needs nothing here).
            if zoomFactor > 1 { zoomFactor = try controls.setZoom(zoomFactor, on: device) }
            self.controls = controls
            stream = try V4L2Stream(device: device)
            self.format = format
            convertedFrom = nativeFormats.contains(format.pixelFormat) ? [] : nativeFormats
            self.device = device
        } catch let error as SystemError {
            close()
            throw error.cameraError(path: description.path)
        }
    }

    public func close() {
        stream = nil
        device = nil
    }

    public func capturePhoto() throws -> CapturedPhoto {
        guard let stream, let format else { throw CameraError.failed("\(description.path) is not open") }
        do {
            try stream.discardQueued()
            // A flash that fails to fire (a fault this instant) leaves the photo unlit rather than
            // failing it, as an unavailable one does; the fault shows in isFlashAvailable.
            try? flash?.beforeCapture(flashMode)
            // Best effort too: the photo is taken either way, and `off` switches the LED off again.
            defer { try? flash?.afterCapture(flashMode) }
            guard let frame = try stream.next(timeout: Self.frameTimeoutMilliseconds) else {
                throw SystemError("no frame from \(description.path) within \(Self.frameTimeoutMilliseconds) ms", errno: Errno(rawValue: ETIMEDOUT))
            }
            let captureTime = Date()
            defer { try? stream.requeue(frame.index) }
            let photo = try encode(frame.bytes, format: format)
            return CapturedPhoto(jpeg: photo.jpeg, thumbnail: photo.thumbnail, width: photo.width, height: photo.height,
                                 captureTime: captureTime, make: description.driver, model: description.name,
                                 isSynthetic: description.isVirtual, digitalZoomRatio: digitalZoomRatio, frameNumber: UInt64(frame.sequence),
                                 busInfo: description.busInfo, usb: description.usb)
        } catch let error as SystemError {
            // The device is gone or broken: let go of it, so it can be unloaded or replugged.
            close()
            throw CameraError.failed("capture from \(description.path) failed: \(error)")
        } catch let error as ImagingError {
            throw CameraError.failed("encoding the frame from \(description.path) failed: \(error)")
        }
    }

    /// Frames as the device streams them, every one (nothing is discarded, unlike for a photo):
    /// MJPEG trimmed at its EOI, or RGB24. Digital zoom does not apply: a JPEG frame cannot be
    /// cropped without changing the stream's size; a device's own zoom does.
    public func withNextVideoFrame<T>(_ body: (VideoFrame) throws -> T) throws -> T {
        guard let stream, let format else { throw CameraError.failed("\(description.path) is not open") }
        let frame: V4L2Stream.Frame
        do {
            guard let next = try stream.next(timeout: Self.frameTimeoutMilliseconds) else {
                throw SystemError("no frame from \(description.path) within \(Self.frameTimeoutMilliseconds) ms", errno: Errno(rawValue: ETIMEDOUT))
            }
            frame = next
        } catch let error as SystemError {
            // The device is gone or broken: let go of it, as capturePhoto does.
            close()
            throw CameraError.failed("capture from \(description.path) failed: \(error)")
        }
        defer { try? stream.requeue(frame.index) }
        let pixels: VideoFrame.Pixels
        do {
            pixels = isJPEG(format)
                ? .jpeg(UnsafeRawBufferPointer(rebasing: frame.bytes[..<(try JPEGFrame.trimmedCount(frame.bytes))]))
                : .rgb(try rgbPixels(frame.bytes, format: format))
        } catch let error as ImagingError {
            throw CameraError.failed("the frame from \(description.path) is unusable: \(error)")
        }
        return try body(VideoFrame(pixels: pixels, width: format.width, height: format.height,
                                   timestamp: frame.timestamp, sequence: UInt64(frame.sequence)))
    }

    public var videoFrameRate: Double? { stream == nil ? nil : frameRate }

    public var videoFrameSize: (width: Int, height: Int)? {
        guard stream != nil, let format else { return nil }
        return (format.width, format.height)
    }

    @discardableResult
    public func setZoom(_ factor: Double) throws -> Double {
        guard factor.isFinite, factor >= 1 else {
            throw CameraError.invalidArgument("zoom factor \(factor) is not a finite number >= 1")
        }
        guard let device, let controls else {
            zoomFactor = min(factor, V4L2Controls.maxDigitalZoom)
            return zoomFactor
        }
        zoomFactor = try mappingErrors { try controls.setZoom(factor, on: device) }
        return zoomFactor
    }

    public func focus(atX x: Double, y: Double) throws -> (x: Double, y: Double) {
        guard (0...1).contains(x), (0...1).contains(y) else {
            throw CameraError.invalidArgument("focus point (\(x), \(y)) is outside 0...1")
        }
        guard let device, let controls, let format else { throw CameraError.focusFailed("\(description.path) is not open") }
        return try mappingErrors { try controls.focus(at: (x, y), frame: (format.width, format.height), on: device) }
    }

    public func setFlashMode(_ mode: FlashMode) throws {
        guard let flash else {
            throw CameraError.unsupported("\(description.name) has no flash (no LED-flash subdevice belongs to \(description.path))")
        }
        try mappingErrors { try flash.select(mode) }
        flashMode = mode
    }

    private var digitalZoomRatio: Double? {
        controls?.zoom == .digital && zoomFactor > 1 ? zoomFactor : nil
    }

    private func isJPEG(_ format: V4L2Device.Format) -> Bool {
        format.pixelFormat == CV4L2_PIX_FMT_MJPEG || format.pixelFormat == CV4L2_PIX_FMT_JPEG
    }

    private func encode(_ bytes: UnsafeRawBufferPointer, format: V4L2Device.Format) throws
        -> (jpeg: [UInt8], thumbnail: [UInt8], width: Int, height: Int) {
        let factor = digitalZoomRatio ?? 1
        if isJPEG(format) {
            var jpeg = try JPEGFrame.trimmed(bytes), width = format.width, height = format.height
            // Cropped losslessly where TurboJPEG can (JPEGCodec.digitalZoom says why), so that the
            // camera's own bytes are signed.
            if factor > 1 { (jpeg, width, height, _) = try JPEGCodec.digitalZoom(jpeg, factor: factor, quality: settings.quality) }
            let thumbnail = try JPEGCodec.thumbnail(fromJPEG: jpeg, maxSide: CapturedPhoto.thumbnailMaxSide,
                                                    quality: CapturedPhoto.thumbnailQuality)
            return (jpeg, thumbnail, width, height)
        }
        let encoded = try encodeRGB(try rgbPixels(bytes, format: format), width: format.width, height: format.height, zoom: factor)
        return (encoded.jpeg, encoded.thumbnail, format.width, format.height)
    }

    /// An RGB24 frame's pixels, checked against the format: unpadded rows, all of them there.
    private func rgbPixels(_ bytes: UnsafeRawBufferPointer, format: V4L2Device.Format) throws -> UnsafeRawBufferPointer {
        let rowBytes = format.width * 3
        guard format.bytesPerLine == rowBytes, bytes.count >= rowBytes * format.height else {
            throw ImagingError("frame of \(bytes.count) bytes (\(format.bytesPerLine) per line) is not \(format.width)×\(format.height) RGB24")
        }
        return UnsafeRawBufferPointer(rebasing: bytes[..<(rowBytes * format.height)])
    }

    private func encodeRGB(_ rgb: UnsafeRawBufferPointer, width: Int, height: Int, zoom: Double) throws -> (jpeg: [UInt8], thumbnail: [UInt8]) {
        guard zoom > 1 else { return try encodeFrame(rgb, width: width, height: height) }
        let zoomed = DigitalZoom.cropAndScale(rgb, width: width, height: height, factor: zoom)
        return try zoomed.withUnsafeBytes { try encodeFrame($0, width: width, height: height) }
    }

    private func encodeFrame(_ rgb: UnsafeRawBufferPointer, width: Int, height: Int) throws -> (jpeg: [UInt8], thumbnail: [UInt8]) {
        (try JPEGCodec.encode(rgb: rgb, width: width, height: height, quality: settings.quality),
         try JPEGCodec.thumbnail(rgb: rgb, width: width, height: height, maxSide: CapturedPhoto.thumbnailMaxSide,
                                 quality: CapturedPhoto.thumbnailQuality))
    }

    private func mappingErrors<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SystemError { throw error.cameraError(path: description.path) }
    }
}
