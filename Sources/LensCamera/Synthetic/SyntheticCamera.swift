import FoundationEssentials
import Glibc
import LensImaging
import LensSystem

/// The explicit synthetic camera (`--camera synthetic`, never a silent fallback): a test pattern
/// rendered in software (SyntheticScene) with the frame number and clock burned in (FrameStamp).
/// Its photos say so: model "lensd synthetic camera", isSynthetic (→ algorithmicMedia).
/// Flash and focus are simulated; zoom really crops the rendered frame. With `frames` it plays
/// those images instead of the pattern, unstamped (the files are the picture), at their size.
public final class SyntheticCamera: Camera {
    public static let model = "lensd synthetic camera"
    public static let make = "lensd"
    static let busInfo = "synthetic"
    public static let maxZoomFactor = 8.0

    public let width: Int
    public let height: Int
    public let frameRate: Double
    public let quality: Int
    /// The last point focus(atX:y:) accepted; the synthetic scene is always sharp.
    public private(set) var focusPoint: (x: Double, y: Double)?

    private let position: CameraPosition
    private let supportedFlashModes: [FlashMode]
    private let clock: @Sendable () -> Date
    private let scene: SyntheticScene
    private let stamp: FrameStamp
    private let scripted: SyntheticFrames?
    private var zoomFactor = 1.0
    private var flashMode = FlashMode.off
    private var openedAt: Date?
    private var lastFrameNumber: UInt64?
    /// The frame photos and video frames are rendered into; allocated by the first one, kept
    /// until close().
    private var frame: [UInt8] = []
    /// The unzoomed scene that digital zoom crops from; allocated by the first zoomed frame.
    private var sceneFrame: [UInt8] = []

    /// `supportedFlashModes` empty makes a camera without flash (for testing clients' handling
    /// of Unsupported); otherwise it must include `.off`, the mode a camera starts in.
    public init(width: Int = 1920, height: Int = 1080, frameRate: Double = 30, quality: Int = 90,
                position: CameraPosition = .back, supportedFlashModes: [FlashMode] = FlashMode.allCases,
                frames: SyntheticFrames? = nil, clock: @escaping @Sendable () -> Date = Date.init) {
        let (width, height) = frames.map { ($0.width, $0.height) } ?? (width, height)
        precondition(width >= 16 && height >= 16 && width <= 16_384 && height <= 16_384, "frame size \(width)×\(height)")
        precondition(frameRate > 0 && frameRate.isFinite && (1...100).contains(quality))
        precondition(supportedFlashModes.isEmpty || supportedFlashModes.contains(.off))
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.quality = quality
        self.position = position
        self.supportedFlashModes = supportedFlashModes
        self.clock = clock
        scene = SyntheticScene(width: width, height: height, sweepFrames: max(2, Int(frameRate * 2)))
        stamp = FrameStamp(frameHeight: height)
        scripted = frames
    }

    public var frameByteCount: Int { width * height * 3 }

    public var state: CameraState {
        CameraState(
            description: CameraDescription(path: "synthetic:\(position.rawValue)", name: Self.model, driver: Self.make, busInfo: Self.busInfo,
                                           position: position, isVirtual: true, formats: ["RGB3"]),
            hasFlash: !supportedFlashModes.isEmpty, isFlashAvailable: !supportedFlashModes.isEmpty,
            flashMode: flashMode, supportedFlashModes: supportedFlashModes,
            canZoom: true, zoomFactor: zoomFactor, maxZoomFactor: Self.maxZoomFactor, digitalZoom: true,
            canFocus: true, isSynthetic: true, videoDigitalZoomRatio: zoomFactor > 1 ? zoomFactor : nil,
            zoomAppliesToVideo: true)
    }

    public func open() throws {
        guard openedAt == nil else { return }
        openedAt = clock()
        lastFrameNumber = nil
    }

    public func close() {
        openedAt = nil
        frame = []
        sceneFrame = []
    }

    public func capturePhoto() throws -> CapturedPhoto {
        guard let openedAt else { throw CameraError.failed("the synthetic camera is not open") }
        let (frameNumber, time) = waitForNextFrame(openedAt: openedAt)
        // Auto decides by scene light, and the synthetic scene is always well lit: only "on" fires.
        let flashFires = flashMode == .on
        renderIntoFrame(frameNumber: frameNumber, time: time, flash: flashFires)
        do {
            return try frame.withUnsafeBytes { rgb in
                CapturedPhoto(
                    jpeg: try JPEGCodec.encode(rgb: rgb, width: width, height: height, quality: quality),
                    thumbnail: try JPEGCodec.thumbnail(rgb: rgb, width: width, height: height,
                                                       maxSide: CapturedPhoto.thumbnailMaxSide,
                                                       quality: CapturedPhoto.thumbnailQuality),
                    width: width, height: height, captureTime: time, make: Self.make, model: Self.model,
                    isSynthetic: true, digitalZoomRatio: zoomFactor > 1 ? zoomFactor : nil, frameNumber: frameNumber,
                    busInfo: Self.busInfo)
            }
        } catch {
            throw CameraError.failed("encoding the synthetic frame failed: \(error)")
        }
    }

    /// Video at frameRate: waits for the next frame like a photo does; a caller that fell behind
    /// gets the current frame, so the frames in between are missing and the timestamps
    /// (frame number / frameRate, exact) show the gap.
    public func withNextVideoFrame<T>(_ body: (VideoFrame) throws -> T) throws -> T {
        guard let openedAt else { throw CameraError.failed("the synthetic camera is not open") }
        let (frameNumber, time) = waitForNextFrame(openedAt: openedAt)
        renderIntoFrame(frameNumber: frameNumber, time: time, flash: false)
        return try frame.withUnsafeBytes { rgb in
            try body(VideoFrame(pixels: .rgb(rgb), width: width, height: height,
                                timestamp: Double(frameNumber) / frameRate, sequence: frameNumber))
        }
    }

    public var videoFrameRate: Double? { openedAt == nil ? nil : frameRate }

    public var videoFrameSize: (width: Int, height: Int)? { openedAt == nil ? nil : (width, height) }

    /// Renders the current frame, unlit, at the current zoom into packed RGB (at least
    /// frameByteCount bytes), without waiting: frame number = floor(elapsed · frameRate) since
    /// open(). For callers that pace themselves (tests and lens-bench step the clock). Requires open().
    public func renderFrame(into buffer: UnsafeMutableRawBufferPointer) -> (frameNumber: UInt64, time: Date) {
        guard let openedAt else { preconditionFailure("SyntheticCamera.renderFrame before open()") }
        let time = clock()
        let frameNumber = Self.frameNumber(at: time, openedAt: openedAt, frameRate: frameRate)
        lastFrameNumber = max(lastFrameNumber ?? 0, frameNumber)
        render(frameNumber: frameNumber, time: time, flash: false, into: buffer)
        return (frameNumber, time)
    }

    @discardableResult
    public func setZoom(_ factor: Double) throws -> Double {
        guard factor.isFinite, factor >= 1 else {
            throw CameraError.invalidArgument("zoom factor \(factor) is not a finite number >= 1")
        }
        zoomFactor = min(factor, Self.maxZoomFactor)
        return zoomFactor
    }

    public func focus(atX x: Double, y: Double) throws -> (x: Double, y: Double) {
        guard (0...1).contains(x), (0...1).contains(y) else {
            throw CameraError.invalidArgument("focus point (\(x), \(y)) is outside 0...1")
        }
        focusPoint = (x, y)
        return (x, y)
    }

    public func setFlashMode(_ mode: FlashMode) throws {
        guard !supportedFlashModes.isEmpty else { throw CameraError.unsupported("this synthetic camera has no flash") }
        guard supportedFlashModes.contains(mode) else {
            let supported = supportedFlashModes.map(\.rawValue).joined(separator: ", ")
            throw CameraError.invalidArgument("flash mode \(mode.rawValue) is not supported (supported: \(supported))")
        }
        flashMode = mode
    }

    /// Like dequeuing from a streaming device: every photo gets a frame no earlier photo got,
    /// waiting up to one frame interval for it. The wait is capped so a clock that stands still
    /// (tests) or steps back cannot stall a capture; frame numbers still only go up.
    private func waitForNextFrame(openedAt: Date) -> (frameNumber: UInt64, time: Date) {
        if let lastFrameNumber {
            let due = openedAt.addingTimeInterval(Double(lastFrameNumber + 1) / frameRate)
            let wait = min(due.timeIntervalSince(clock()), 1 / frameRate)
            if wait > 0 { Threads.sleep(seconds: wait) }
        }
        let time = clock()
        let frameNumber = max(Self.frameNumber(at: time, openedAt: openedAt, frameRate: frameRate),
                              lastFrameNumber.map { $0 + 1 } ?? 0)
        lastFrameNumber = frameNumber
        return (frameNumber, time)
    }

    private static func frameNumber(at time: Date, openedAt: Date, frameRate: Double) -> UInt64 {
        let frames = (time.timeIntervalSince(openedAt) * frameRate).rounded(.down)
        return frames > 0 ? UInt64(frames) : 0
    }

    private func renderIntoFrame(frameNumber: UInt64, time: Date, flash: Bool) {
        if frame.count != frameByteCount { frame = [UInt8](repeating: 0, count: frameByteCount) }
        frame.withUnsafeMutableBytes { render(frameNumber: frameNumber, time: time, flash: flash, into: $0) }
    }

    private func render(frameNumber: UInt64, time: Date, flash: Bool, into buffer: UnsafeMutableRawBufferPointer) {
        let canvas = RGBCanvas(buffer, width: width, height: height)
        if let scripted {
            let picture = scripted.rgb(frame: frameNumber)
            picture.withUnsafeBytes { source in
                if zoomFactor > 1 {
                    DigitalZoom.cropAndScale(source, into: buffer, width: width, height: height, factor: zoomFactor)
                } else {
                    buffer.copyMemory(from: source)
                }
            }
            return
        }
        if zoomFactor > 1 {
            if sceneFrame.count != frameByteCount { sceneFrame = [UInt8](repeating: 0, count: frameByteCount) }
            sceneFrame.withUnsafeMutableBytes { sceneBuffer in
                scene.render(frameNumber: frameNumber, flash: flash, into: RGBCanvas(sceneBuffer, width: width, height: height))
                DigitalZoom.cropAndScale(UnsafeRawBufferPointer(sceneBuffer), into: buffer,
                                         width: width, height: height, factor: zoomFactor)
            }
        } else {
            scene.render(frameNumber: frameNumber, flash: flash, into: canvas)
        }
        stamp.draw(FrameStamp.lines(frameNumber: frameNumber, time: time), on: canvas)
    }
}
