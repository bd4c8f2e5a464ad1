/// What makes a face frame good for a selfie, measured inside the face box of a luma image.
public struct FaceQuality: Sendable, Equatable {
    /// Face width over image width.
    public let size: Double
    /// Distance of the face centre from the image centre, each axis relative to that side:
    /// 0 centred, about 0.7 in a corner.
    public let centerOffset: Double
    /// Mean luma in the face box, 0 (black) ... 1 (white).
    public let brightness: Double
    /// Fractions of face-box pixels at luma ≤ 5 and ≥ 250 (clipped shadows, blown highlights).
    public let darkClippedFraction: Double
    public let brightClippedFraction: Double
    /// Variance of the 4-neighbour Laplacian over the face box (as cv2.Laplacian, ksize 1):
    /// low for a blurred face.
    public let sharpness: Double

    init(_ box: FaceRectangle, in image: LumaImage) {
        size = Double(box.width) / Double(image.width)
        let dx = (Double(box.x) + Double(box.width) / 2) / Double(image.width) - 0.5
        let dy = (Double(box.y) + Double(box.height) / 2) / Double(image.height) - 0.5
        centerOffset = (dx * dx + dy * dy).squareRoot()
        let clipped = FaceRectangle(x: max(0, box.x), y: max(0, box.y),
                                    width: min(box.x + box.width, image.width) - max(0, box.x),
                                    height: min(box.y + box.height, image.height) - max(0, box.y))
        let crop = image.cropped(to: clipped)
        let exposure = Self.exposure(crop)
        brightness = exposure.mean
        darkClippedFraction = exposure.dark
        brightClippedFraction = exposure.bright
        sharpness = Self.laplacianVariance(crop)
    }

    private static func exposure(_ crop: LumaImage) -> (mean: Double, dark: Double, bright: Double) {
        var sum = 0, dark = 0, bright = 0
        for value in crop.pixels {
            sum += Int(value)
            if value <= 5 { dark += 1 }
            if value >= 250 { bright += 1 }
        }
        let count = Double(max(1, crop.pixels.count))
        return (Double(sum) / count / 255, Double(dark) / count, Double(bright) / count)
    }

    /// Over the interior pixels (a crop under 3×3 has none and scores 0).
    private static func laplacianVariance(_ crop: LumaImage) -> Double {
        guard crop.width >= 3, crop.height >= 3 else { return 0 }
        var sum = 0.0, squares = 0.0
        let w = crop.width
        crop.pixels.withUnsafeBufferPointer { p in
            for y in 1..<(crop.height - 1) {
                for x in 1..<(w - 1) {
                    let i = y * w + x
                    let value = Double(Int(p[i - 1]) + Int(p[i + 1]) + Int(p[i - w]) + Int(p[i + w]) - 4 * Int(p[i]))
                    sum += value
                    squares += value * value
                }
            }
        }
        let count = Double((crop.width - 2) * (crop.height - 2))
        let mean = sum / count
        return squares / count - mean * mean
    }
}
