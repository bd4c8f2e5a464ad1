/// One face the detector found: where, how sure, and what a capture would look like.
public struct DetectedFace: Sendable, Equatable {
    public let rectangle: FaceRectangle
    /// How many overlapping windows agreed (OpenCV's numDetections): the detector's confidence.
    public let confidence: Int
    public let quality: FaceQuality

    init(rectangle: FaceRectangle, confidence: Int, in image: LumaImage) {
        self.rectangle = rectangle
        self.confidence = confidence
        quality = FaceQuality(rectangle, in: image)
    }

    /// The same face in the coordinates of a larger image whose crop at `origin` was searched;
    /// its quality stays measured against the crop (the region the person is guided into).
    func offset(by origin: (x: Int, y: Int)) -> DetectedFace {
        DetectedFace(rectangle: FaceRectangle(x: rectangle.x + origin.x, y: rectangle.y + origin.y,
                                              width: rectangle.width, height: rectangle.height),
                     confidence: confidence, quality: quality)
    }

    private init(rectangle: FaceRectangle, confidence: Int, quality: FaceQuality) {
        self.rectangle = rectangle
        self.confidence = confidence
        self.quality = quality
    }
}
