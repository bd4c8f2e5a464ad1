/// One level of OpenCV's detectMultiScale for an LBP cascade: every window position of a
/// downscaled image run through the stages (CascadeClassifierInvoker + predictCategoricalStump).
struct CascadeScan {
    let cascade: LBPCascade

    /// Windows that pass every stage, in the downscaled image's coordinates, scanned row by
    /// row with OpenCV's step (2 below a scale of 2, else 1, and one step more after a window
    /// that fails the first stage).
    func accepted(in integral: IntegralImage, width: Int, height: Int, step: Int) -> [(x: Int, y: Int)] {
        let columns = width + 1 - cascade.windowWidth, rows = height + 1 - cascade.windowHeight
        guard columns > 0, rows > 0 else { return [] }
        let offsets = cornerOffsets(stride: integral.stride)
        var found: [(x: Int, y: Int)] = []
        integral.values.withUnsafeBufferPointer { table in
            offsets.withUnsafeBufferPointer { offsets in
                var y = 0
                while y < rows {
                    var x = 0
                    while x < columns {
                        let result = evaluate(table, origin: y * integral.stride + x, offsets)
                        if result > 0 { found.append((x, y)) }
                        x += result == 0 ? 2 * step : step
                    }
                    y += step
                }
            }
        }
        return found
    }

    /// 1 when the window passes every stage, else minus the index of the stage that rejected it.
    private func evaluate(_ table: UnsafeBufferPointer<Int32>, origin: Int, _ offsets: UnsafeBufferPointer<Int>) -> Int {
        cascade.stumpSubsets.withUnsafeBufferPointer { subsets in
            cascade.stumpLeaves.withUnsafeBufferPointer { leaves in
                cascade.stumpFeatures.withUnsafeBufferPointer { features in
                    for (index, stage) in cascade.stages.enumerated() {
                        var sum = 0.0
                        for stump in stage.firstStump..<(stage.firstStump + stage.stumpCount) {
                            let code = Self.code(table, origin, offsets, feature: Int(features[stump]))
                            let word = subsets[stump * LBPCascade.subsetWords + code >> 5]
                            sum += Double(leaves[2 * stump + (word & (1 << Int32(code & 31)) != 0 ? 0 : 1)])
                        }
                        if sum < Double(stage.threshold) { return -index }
                    }
                    return 1
                }
            }
        }
    }

    /// The 8-bit LBP code of a feature: each of the 8 outer cells of its 3×3 grid against the
    /// centre, clockwise from the top-left (bit 7) as OpenCV's LBPEvaluator::OptFeature.
    @inline(__always)
    private static func code(_ table: UnsafeBufferPointer<Int32>, _ origin: Int, _ offsets: UnsafeBufferPointer<Int>,
                             feature: Int) -> Int {
        let base = feature * 16
        // The 4×4 corner grid; p(r, c) is the table value at corner row r, column c.
        @inline(__always) func p(_ r: Int, _ c: Int) -> Int32 { table[origin + offsets[base + r * 4 + c]] }
        @inline(__always) func cell(_ r: Int, _ c: Int) -> Int32 { p(r, c) &- p(r, c + 1) &- p(r + 1, c) &+ p(r + 1, c + 1) }
        let centre = cell(1, 1)
        var code = 0
        if cell(0, 0) >= centre { code |= 128 }
        if cell(0, 1) >= centre { code |= 64 }
        if cell(0, 2) >= centre { code |= 32 }
        if cell(1, 2) >= centre { code |= 16 }
        if cell(2, 2) >= centre { code |= 8 }
        if cell(2, 1) >= centre { code |= 4 }
        if cell(2, 0) >= centre { code |= 2 }
        if cell(1, 0) >= centre { code |= 1 }
        return code
    }

    /// Per feature, the table offsets of its 16 grid corners relative to the window origin.
    private func cornerOffsets(stride: Int) -> [Int] {
        cascade.features.flatMap { feature in
            (0..<16).map { corner in
                (feature.y + (corner / 4) * feature.height) * stride + feature.x + (corner % 4) * feature.width
            }
        }
    }
}
