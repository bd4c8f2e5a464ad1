/// Digital zoom on packed RGB: the centred 1/factor of the frame, scaled back to full size by
/// nearest-neighbour sampling. It really crops, so every output pixel is one the source frame
/// held, and a subject's size grows by exactly the factor.
package enum DigitalZoom {
    /// The zoomed frame, in a new buffer.
    package static func cropAndScale(_ source: UnsafeRawBufferPointer, width: Int, height: Int, factor: Double) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, initialized in
            cropAndScale(source, into: UnsafeMutableRawBufferPointer(buffer), width: width, height: height, factor: factor)
            initialized = width * height * 3
        }
    }

    package static func cropAndScale(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer,
                             width: Int, height: Int, factor: Double) {
        let rowBytes = width * 3
        precondition(factor >= 1 && source.count >= rowBytes * height && destination.count >= rowBytes * height)
        let cropWidth = max(1, Int((Double(width) / factor).rounded()))
        let cropHeight = max(1, Int((Double(height) / factor).rounded()))
        let cropX = (width - cropWidth) / 2, cropY = (height - cropHeight) / 2
        let input = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let output = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)

        let sourceOffsets = UnsafeMutableBufferPointer<Int>.allocate(capacity: width)
        defer { sourceOffsets.deallocate() }
        for x in 0..<width { sourceOffsets[x] = (cropX + x * cropWidth / width) * 3 }

        var previousSourceRow = -1
        for y in 0..<height {
            let sourceRow = cropY + y * cropHeight / height
            let outRow = output + y * rowBytes
            // Zoomed rows repeat `factor` times: copy the row just made instead of sampling again.
            if sourceRow == previousSourceRow {
                outRow.update(from: outRow - rowBytes, count: rowBytes)
                continue
            }
            previousSourceRow = sourceRow
            let inRow = input + sourceRow * rowBytes
            for x in 0..<width {
                let from = inRow + sourceOffsets[x], to = outRow + x * 3
                to[0] = from[0]; to[1] = from[1]; to[2] = from[2]
            }
        }
    }
}
