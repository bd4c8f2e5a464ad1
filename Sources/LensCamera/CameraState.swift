/// What the CurrentDevice property reports: the device and its controls' current values.
public struct CameraState: Sendable, Equatable {
    public var description: CameraDescription
    public var hasFlash: Bool
    /// The flash can fire now (false while unavailable, e.g. recharging).
    public var isFlashAvailable: Bool
    public var flashMode: FlashMode
    /// Empty when hasFlash is false.
    public var supportedFlashModes: [FlashMode]
    public var canZoom: Bool
    /// Reported as videoZoomFactor; 1 = no zoom.
    public var zoomFactor: Double
    public var maxZoomFactor: Double
    /// Zoom crops the frame in software rather than moving optics.
    public var digitalZoom: Bool
    public var canFocus: Bool
    /// Renders rather than senses: its captures say digitalSourceType algorithmicMedia.
    public var isSynthetic: Bool
    /// The digital zoom its video frames carry (exif:DigitalZoomRatio of a recording); nil when
    /// none — also for cameras whose digital zoom applies to photos only.
    public var videoDigitalZoomRatio: Double?
    /// Zoom changes the frames it streams (the device's own zoom, or a digital zoom applied to
    /// video frames too), so it can change while recording.
    public var zoomAppliesToVideo: Bool

    public init(description: CameraDescription, hasFlash: Bool, isFlashAvailable: Bool, flashMode: FlashMode,
                supportedFlashModes: [FlashMode], canZoom: Bool, zoomFactor: Double, maxZoomFactor: Double,
                digitalZoom: Bool, canFocus: Bool, isSynthetic: Bool, videoDigitalZoomRatio: Double?,
                zoomAppliesToVideo: Bool) {
        self.description = description
        self.hasFlash = hasFlash
        self.isFlashAvailable = isFlashAvailable
        self.flashMode = flashMode
        self.supportedFlashModes = supportedFlashModes
        self.canZoom = canZoom
        self.zoomFactor = zoomFactor
        self.maxZoomFactor = maxZoomFactor
        self.digitalZoom = digitalZoom
        self.canFocus = canFocus
        self.isSynthetic = isSynthetic
        self.videoDigitalZoomRatio = videoDigitalZoomRatio
        self.zoomAppliesToVideo = zoomAppliesToVideo
    }
}
