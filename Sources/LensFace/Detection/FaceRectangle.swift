/// A rectangle in pixels, as OpenCV's cv::Rect: top-left corner, width and height.
public struct FaceRectangle: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "(\(x), \(y), \(width)×\(height))" }

    /// Intersection over union, 0...1: how the tests compare rectangles with OpenCV's.
    public func intersectionOverUnion(_ other: FaceRectangle) -> Double {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
        let intersection = Double(max(0, right - left) * max(0, bottom - top))
        let union = Double(width * height + other.width * other.height) - intersection
        return union > 0 ? intersection / union : 0
    }
}
