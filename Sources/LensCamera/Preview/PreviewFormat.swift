/// What a preview streams: the camera's picture fitted into a box (aspect kept, never enlarged),
/// at most `fps` frames a second, as baseline JPEGs of `quality`.
public struct PreviewFormat: Sendable, Equatable {
    public static let defaultBox = (width: 640, height: 480)
    public static let maximumFPS = 30.0
    public static let defaultQuality = 75
    /// A box side outside this is refused (InvalidArgument), as is a quality outside 1...100.
    public static let boxSides = 16...7680

    public var width: Int
    public var height: Int
    public var fps: Double
    public var quality: Int

    public init(width: Int, height: Int, fps: Double, quality: Int) {
        self.width = width
        self.height = height
        self.fps = fps
        self.quality = quality
    }

    /// The format used for a camera streaming `frame` at `cameraRate` (nil: unknown): `fps`
    /// (nil: the camera's) is capped by the camera's rate and by maximumFPS.
    public init(fitting frame: (width: Int, height: Int), into box: (width: Int, height: Int),
                fps: Double?, cameraRate: Double?, quality: Int) {
        // The largest scale at which the frame fits the box; 1 at most.
        let scale = min(1, Double(box.width) / Double(frame.width), Double(box.height) / Double(frame.height))
        width = max(1, min(frame.width, Int((Double(frame.width) * scale).rounded())))
        height = max(1, min(frame.height, Int((Double(frame.height) * scale).rounded())))
        let ceiling = min(Self.maximumFPS, cameraRate ?? Self.maximumFPS)
        self.fps = min(fps ?? ceiling, ceiling)
        self.quality = quality
    }
}
