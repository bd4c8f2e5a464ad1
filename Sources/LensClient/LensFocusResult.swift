/// What `focus(at:)` did. A V4L2 camera with a region-of-interest control focuses (and meters)
/// around the point and answers where the region it kept lies; one without focuses its own area
/// and answers the centre: then `point` is (0.5, 0.5), not the point asked for, and `isFallback`
/// is true. FocusedOnPoint carries the same `point`.
public struct LensFocusResult: Sendable, Equatable {
    /// The point the camera actually focused at.
    public var point: LensPoint
    public var requested: LensPoint

    public init(point: LensPoint, requested: LensPoint) {
        self.point = point
        self.requested = requested
    }

    /// The camera used another point than the one asked for (its own area, the centre).
    public var isFallback: Bool { point != requested }
}
