/// Finds frontal faces in a luma plane with an LBP cascade, as OpenCV's
/// CascadeClassifier::detectMultiScale does (scale pyramid, LBP stumps, groupRectangles with
/// eps 0.2), single-threaded. Stateless after construction: one detector may serve many threads.
public struct FaceDetector: Sendable {
    public struct Options: Sendable, Equatable {
        /// Each pyramid level is this much smaller than the one before (OpenCV's scaleFactor);
        /// must be above 1.
        public var scaleFactor: Double = 1.1
        /// A face needs more than this many overlapping detections (OpenCV's minNeighbors).
        public var minNeighbors: Int = 3
        /// Smallest and largest face side in pixels searched for; 0 means no limit.
        public var minSize: Int = 0
        public var maxSize: Int = 0

        public init(scaleFactor: Double = 1.1, minNeighbors: Int = 3, minSize: Int = 0, maxSize: Int = 0) {
            self.scaleFactor = scaleFactor
            self.minNeighbors = minNeighbors
            self.minSize = minSize
            self.maxSize = maxSize
        }
    }

    public let cascade: LBPCascade

    public init(cascade: LBPCascade) {
        self.cascade = cascade
    }

    /// Faces in `image`, largest first, each with its confidence and quality attributes.
    public func detect(image: LumaImage, options: Options = Options()) -> [DetectedFace] {
        let candidates = candidates(in: image, options: options)
        return RectangleGrouping.group(candidates, minNeighbors: options.minNeighbors)
            .map { DetectedFace(rectangle: $0.rectangle, confidence: $0.neighbours, in: image) }
            .sorted { $0.rectangle.width > $1.rectangle.width }
    }

    /// Every window that passed the cascade, in image coordinates, before grouping.
    func candidates(in image: LumaImage, options: Options) -> [FaceRectangle] {
        let scan = CascadeScan(cascade: cascade)
        var rectangles: [FaceRectangle] = []
        for scale in scales(for: image, options: options) {
            let width = Int((Float(image.width) / scale).rounded(.toNearestOrEven))
            let height = Int((Float(image.height) / scale).rounded(.toNearestOrEven))
            let level = BilinearResize.resize(image, width: width, height: height)
            let window = FaceRectangle(x: 0, y: 0, width: Self.round(Float(cascade.windowWidth) * scale),
                                       height: Self.round(Float(cascade.windowHeight) * scale))
            for hit in scan.accepted(in: IntegralImage(level), width: width, height: height, step: scale >= 2 ? 1 : 2) {
                rectangles.append(FaceRectangle(x: Self.round(Float(hit.x) * scale), y: Self.round(Float(hit.y) * scale),
                                                width: window.width, height: window.height))
            }
        }
        return rectangles
    }

    /// The pyramid's scales, as detectMultiScaleNoGrouping picks them: every factor whose
    /// window fits the image, less those outside minSize...maxSize.
    /// A scale factor of 1 or less would never end the pyramid: it yields no scales (no faces).
    func scales(for image: LumaImage, options: Options) -> [Float] {
        guard options.scaleFactor > 1 else { return [] }
        let maxWidth = options.maxSize > 0 ? min(options.maxSize, image.width) : image.width
        let maxHeight = options.maxSize > 0 ? min(options.maxSize, image.height) : image.height
        var scales: [Float] = []
        var factor = 1.0
        while true {
            // OpenCV sizes the window with the Double factor here, and with its Float copy below.
            let width = Int((Double(cascade.windowWidth) * factor).rounded(.toNearestOrEven))
            let height = Int((Double(cascade.windowHeight) * factor).rounded(.toNearestOrEven))
            if width > maxWidth || height > maxHeight { break }
            let scale = Float(factor)
            if Self.round(Float(cascade.windowWidth) * scale) >= options.minSize,
               Self.round(Float(cascade.windowHeight) * scale) >= options.minSize {
                scales.append(scale)
            }
            factor *= options.scaleFactor
        }
        return scales
    }

    private static func round(_ value: Float) -> Int { Int(value.rounded(.toNearestOrEven)) }
}
