/// The summed-area table of a luma plane, (width+1)×(height+1) with a zero first row and
/// column, as OpenCV's integral(). Sums wrap in 32 bits like OpenCV's CV_32S table; the
/// differences the cascade takes stay exact because every cell sum is far below 2³¹.
struct IntegralImage {
    let stride: Int
    let values: [Int32]

    init(_ image: LumaImage) {
        let stride = image.width + 1
        var values = [Int32](repeating: 0, count: stride * (image.height + 1))
        image.pixels.withUnsafeBufferPointer { pixels in
            values.withUnsafeMutableBufferPointer { table in
                for row in 0..<image.height {
                    var rowSum: Int32 = 0
                    let above = row * stride, here = above + stride
                    for column in 0..<image.width {
                        rowSum &+= Int32(pixels[row * image.width + column])
                        table[here + column + 1] = table[above + column + 1] &+ rowSum
                    }
                }
            }
        }
        self.stride = stride
        self.values = values
    }
}
