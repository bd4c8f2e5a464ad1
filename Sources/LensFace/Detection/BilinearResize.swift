/// Downscaling for the scale pyramid, mirroring OpenCV's INTER_LINEAR_EXACT on 8-bit input:
/// pixel centres map as (d + 0.5)·scale − 0.5, borders replicate, weights have 8 fractional
/// bits per axis and the result rounds once. Matching OpenCV here keeps the windows the
/// cascade sees, and so its rectangles, the same as OpenCV's.
enum BilinearResize {
    static func resize(_ image: LumaImage, width: Int, height: Int) -> LumaImage {
        if width == image.width, height == image.height { return image }
        let columns = taps(source: image.width, destination: width)
        let rows = taps(source: image.height, destination: height)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { output, initialized in
            image.pixels.withUnsafeBufferPointer { source in
                var upper = [Int32](repeating: 0, count: width), lower = [Int32](repeating: 0, count: width)
                for (row, tap) in rows.enumerated() {
                    horizontal(source, row: tap.index, stride: image.width, columns, into: &upper)
                    horizontal(source, row: min(tap.index + 1, image.height - 1), stride: image.width, columns, into: &lower)
                    let w1 = tap.weight, w0 = 256 - w1
                    for column in 0..<width {
                        output[row * width + column] = UInt8((upper[column] * w0 + lower[column] * w1 + 32768) >> 16)
                    }
                }
            }
            initialized = width * height
        }
        return LumaImage(uncheckedWidth: width, height: height, pixels: pixels)
    }

    /// Source index and the 8-bit weight of the next pixel, per destination pixel.
    private static func taps(source: Int, destination: Int) -> [(index: Int, weight: Int32)] {
        let scale = Double(source) / Double(destination)
        return (0..<destination).map { d in
            let position = (Double(d) + 0.5) * scale - 0.5
            var index = Int(position.rounded(.down))
            var fraction = position - Double(index)
            if index < 0 { index = 0; fraction = 0 }
            if index >= source - 1 { index = source - 1; fraction = 0 }
            return (index, Int32((fraction * 256).rounded()))
        }
    }

    private static func horizontal(_ source: UnsafeBufferPointer<UInt8>, row: Int, stride: Int,
                                   _ columns: [(index: Int, weight: Int32)], into output: inout [Int32]) {
        let base = row * stride
        for (column, tap) in columns.enumerated() {
            let left = Int32(source[base + tap.index]), right = Int32(source[base + min(tap.index + 1, stride - 1)])
            output[column] = left * (256 - tap.weight) + right * tap.weight
        }
    }
}
