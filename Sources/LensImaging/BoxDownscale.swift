/// Area-averaging downscale of packed RGB. Every source pixel counts exactly once, so thin lines
/// and the edges of the test pattern survive where nearest-neighbour sampling would alias them.
package enum BoxDownscale {
    /// The size that fits within maxSide on the long side with the aspect ratio kept (rounded,
    /// at least 1 pixel); images already within maxSide keep their size.
    package static func fittingSize(width: Int, height: Int, maxSide: Int) -> (width: Int, height: Int) {
        let longSide = max(width, height)
        guard longSide > maxSide else { return (width, height) }
        return (max(1, (width * maxSide + longSide / 2) / longSide),
                max(1, (height * maxSide + longSide / 2) / longSide))
    }

    /// Output pixel (x, y) averages source columns [x·W/w, (x+1)·W/w) and rows likewise. The
    /// rows of each band are summed first, byte by byte: that loop touches every source byte and
    /// is the one the compiler vectorizes.
    package static func downscale(_ source: UnsafeRawBufferPointer, width: Int, height: Int,
                          toWidth outWidth: Int, height outHeight: Int) -> [UInt8] {
        let rowBytes = width * 3
        precondition(outWidth <= width && outHeight <= height && source.count >= rowBytes * height)
        let pixels = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let columnStart = UnsafeMutableBufferPointer<Int>.allocate(capacity: outWidth + 1)
        // At most 65,535 rows of 255 per band: UInt32 cannot overflow.
        let bandSums = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: rowBytes)
        defer { columnStart.deallocate(); bandSums.deallocate() }
        for x in 0...outWidth { columnStart[x] = x * width / outWidth }

        return [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * 3) { out, initialized in
            var outIndex = 0
            for y in 0..<outHeight {
                let firstRow = y * height / outHeight, endRow = (y + 1) * height / outHeight
                bandSums.update(repeating: 0)
                for sourceY in firstRow..<endRow {
                    let row = pixels + sourceY * rowBytes
                    for index in 0..<rowBytes { bandSums[index] &+= UInt32(row[index]) }
                }
                for x in 0..<outWidth {
                    let columns = columnStart[x]..<columnStart[x + 1]
                    let area = (endRow - firstRow) * columns.count
                    for channel in 0..<3 {
                        var sum = 0
                        for column in columns { sum += Int(bandSums[column * 3 + channel]) }
                        out[outIndex] = UInt8((sum + area / 2) / area)
                        outIndex += 1
                    }
                }
            }
            initialized = outIndex
        }
    }
}
