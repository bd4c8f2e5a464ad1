import LensCore
import LensImaging

/// Packed RGB images made for tests, and measurements on decoded ones.
struct RGBImage {
    var rgb: [UInt8]
    var width: Int
    var height: Int

    init(rgb: [UInt8], width: Int, height: Int) {
        precondition(rgb.count == width * height * 3)
        self.rgb = rgb
        self.width = width
        self.height = height
    }

    init(decoding jpeg: [UInt8]) throws {
        let decoded = try JPEGCodec.decodeRGB(jpeg)
        self.init(rgb: decoded.rgb, width: decoded.width, height: decoded.height)
    }

    /// Smooth in both directions, like a photo, so JPEG keeps it close.
    static func gradient(width: Int, height: Int) -> RGBImage {
        filled(width: width, height: height) { x, y in
            (UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 128)
        }
    }

    static func solid(width: Int, height: Int, _ red: UInt8, _ green: UInt8, _ blue: UInt8) -> RGBImage {
        filled(width: width, height: height) { _, _ in (red, green, blue) }
    }

    static func filled(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> RGBImage {
        let rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, initialized in
            for y in 0..<height {
                for x in 0..<width {
                    let (red, green, blue) = color(x, y), index = (y * width + x) * 3
                    buffer[index] = red; buffer[index + 1] = green; buffer[index + 2] = blue
                }
            }
            initialized = width * height * 3
        }
        return RGBImage(rgb: rgb, width: width, height: height)
    }

    func encoded(quality: Int = 90) throws -> [UInt8] {
        try rgb.withUnsafeBytes { try JPEGCodec.encode(rgb: $0, width: width, height: height, quality: quality) }
    }

    func pixel(x: Int, y: Int) -> (red: Int, green: Int, blue: Int) {
        let index = (y * width + x) * 3
        return (Int(rgb[index]), Int(rgb[index + 1]), Int(rgb[index + 2]))
    }

    var meanColor: (red: Double, green: Double, blue: Double) {
        var sums = [0, 0, 0]
        for (index, value) in rgb.enumerated() { sums[index % 3] += Int(value) }
        let count = Double(width * height)
        return (Double(sums[0]) / count, Double(sums[1]) / count, Double(sums[2]) / count)
    }

    var meanLuma: Double {
        let mean = meanColor
        return 0.299 * mean.red + 0.587 * mean.green + 0.114 * mean.blue
    }

    func isMarkerRed(x: Int, y: Int) -> Bool {
        let pixel = pixel(x: x, y: y)
        return pixel.red > 200 && pixel.green < 80 && pixel.blue < 80
    }

    /// Red pixels along the centre row and down the centre column: the marker's measured size.
    var markerSize: (width: Int, height: Int) {
        ((0..<width).filter { isMarkerRed(x: $0, y: height / 2) }.count,
         (0..<height).filter { isMarkerRed(x: width / 2, y: $0) }.count)
    }

    /// Pixels whose channels differ by more than 30 in sum: changes JPEG noise cannot explain.
    func differingPixels(from other: RGBImage) -> Int {
        precondition(other.width == width && other.height == height)
        return stride(from: 0, to: rgb.count, by: 3).filter { index in
            let difference = (0..<3).map { abs(Int(rgb[index + $0]) - Int(other.rgb[index + $0])) }
            return difference.reduce(0, +) > 30
        }.count
    }
}
