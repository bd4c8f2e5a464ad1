import LensImaging
/// A cheap measure of how much a scene changed: mean luma over a coarse grid of a preview frame.
public enum SceneChange {
    public static let gridSize = 8
    /// Mean absolute luma change per cell (0...255) above which the subject area has changed.
    public static let substantial = 12.0

    public static func lumaGrid(ofJPEG jpeg: [UInt8]) throws -> [Double] {
        let (rgb, width, height) = try JPEGCodec.decodeRGB(jpeg)
        var sums = [Double](repeating: 0, count: gridSize * gridSize)
        var counts = [Int](repeating: 0, count: gridSize * gridSize)
        for y in 0..<height {
            let row = y * gridSize / height
            for x in 0..<width {
                let cell = row * gridSize + x * gridSize / width
                let p = (y * width + x) * 3
                // Rec. 601 luma.
                sums[cell] += 0.299 * Double(rgb[p]) + 0.587 * Double(rgb[p + 1]) + 0.114 * Double(rgb[p + 2])
                counts[cell] += 1
            }
        }
        return zip(sums, counts).map { $1 == 0 ? 0 : $0 / Double($1) }
    }

    public static func difference(_ a: [Double], _ b: [Double]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Double(a.count)
    }
}
