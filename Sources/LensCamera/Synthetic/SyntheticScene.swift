/// The synthetic camera's subject, rendered at full sensor size:
/// - top third: colour bars, none of them red, so the marker is the only red in the frame;
/// - middle third: a grey field holding the MARKER, a solid pure-red square of side height/8
///   centred in the frame, whose measured size shows the digital zoom factor;
/// - bottom third: a grey ramp;
/// - a light bar that sweeps left to right once every `sweepFrames` frames, passing behind the
///   marker, so consecutive frames differ while the marker stays intact.
/// Every band is constant down its rows, so each is painted once and copied.
struct SyntheticScene {
    static let markerColor = RGBColor(255, 0, 0)
    private static let bars = [RGBColor(191, 191, 191), RGBColor(191, 191, 0), RGBColor(0, 191, 191),
                               RGBColor(0, 191, 0), RGBColor(191, 0, 191), RGBColor(0, 0, 191), RGBColor(16, 16, 16)]
    private static let field = RGBColor(110, 110, 110)
    private static let sweepBar = RGBColor(235, 235, 235)

    let width: Int
    let height: Int
    let sweepFrames: Int

    var markerSide: Int { max(2, height / 8) }

    func render(frameNumber: UInt64, flash: Bool, into canvas: RGBCanvas) {
        precondition(canvas.width == width && canvas.height == height)
        func light(_ color: RGBColor) -> RGBColor { flash ? SoftwareFlash.illuminate(color) : color }
        let sweepBar = light(Self.sweepBar)
        let fieldTop = height / 3, rampTop = 2 * height / 3
        let markerLeft = (width - markerSide) / 2, markerTop = (height - markerSide) / 2

        for (index, color) in Self.bars.enumerated() {
            let columns = index * width / Self.bars.count ..< (index + 1) * width / Self.bars.count
            canvas.fill(row: 0, columns: columns, with: light(color))
        }
        drawSweepBar(frameNumber: frameNumber, row: 0, color: sweepBar, on: canvas)
        canvas.copy(row: 0, to: 1..<fieldTop)

        canvas.fill(row: fieldTop, columns: 0..<width, with: light(Self.field))
        drawSweepBar(frameNumber: frameNumber, row: fieldTop, color: sweepBar, on: canvas)
        canvas.copy(row: fieldTop, to: fieldTop + 1 ..< rampTop)
        canvas.fill(columns: markerLeft ..< markerLeft + markerSide, rows: markerTop ..< markerTop + markerSide,
                    with: light(Self.markerColor))

        for x in 0..<width {
            let level = UInt8(x * 255 / (width - 1))
            canvas.fill(row: rampTop, columns: x ..< x + 1, with: light(RGBColor(level, level, level)))
        }
        drawSweepBar(frameNumber: frameNumber, row: rampTop, color: sweepBar, on: canvas)
        canvas.copy(row: rampTop, to: rampTop + 1 ..< height)
    }

    private func drawSweepBar(frameNumber: UInt64, row: Int, color: RGBColor, on canvas: RGBCanvas) {
        let left = Int(frameNumber % UInt64(sweepFrames)) * width / sweepFrames
        canvas.fill(row: row, columns: left ..< left + max(2, width / 48), with: color)
    }
}
