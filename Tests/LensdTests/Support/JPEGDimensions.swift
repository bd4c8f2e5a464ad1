import LensTestSupport

/// Width and height from a JPEG's first SOFn segment.
func jpegDimensions(_ jpeg: [UInt8]) throws -> (width: Int, height: Int) {
    var i = 2
    while i + 9 < jpeg.count, jpeg[i] == 0xFF {
        let marker = jpeg[i + 1]
        let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
        if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
            return (Int(jpeg[i + 7]) << 8 | Int(jpeg[i + 8]), Int(jpeg[i + 5]) << 8 | Int(jpeg[i + 6]))
        }
        i += 2 + length
    }
    throw TestToolError("no SOF segment")
}
