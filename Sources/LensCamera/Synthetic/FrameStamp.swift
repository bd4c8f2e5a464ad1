import FoundationEssentials

/// Burns the frame number ("#000123") and the frame's clock in UTC ("12:34:56.789Z") into the
/// top-left corner, white BitmapFont dots on a black box. It is drawn after digital zoom, like a
/// camera's on-screen display, so both stay readable at any zoom and can be read back out of a
/// signed JPEG. UTC, because the daemon's time zone is whatever its unit was started with.
struct FrameStamp {
    /// Pixels per font dot: 6 at 1080p, so dots survive JPEG compression.
    let scale: Int

    init(frameHeight: Int) {
        scale = max(1, frameHeight / 180)
    }

    /// Distance of the first glyph's top-left corner from the frame's left and top edges.
    var origin: Int { 3 * scale }
    var advance: Int { (BitmapFont.glyphWidth + 1) * scale }
    var lineHeight: Int { (BitmapFont.glyphHeight + 2) * scale }

    static func lines(frameNumber: UInt64, time: Date) -> [String] {
        let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
        let ofDay = (milliseconds % 86_400_000 + 86_400_000) % 86_400_000
        let clock = "\(padded(ofDay / 3_600_000, 2)):\(padded(ofDay / 60_000 % 60, 2)):"
            + "\(padded(ofDay / 1000 % 60, 2)).\(padded(ofDay % 1000, 3))Z"
        return ["#" + padded(frameNumber, 6), clock]
    }

    func draw(_ lines: [String], on canvas: RGBCanvas) {
        let columns = lines.map(\.count).max() ?? 0
        canvas.fill(columns: 2 * scale ..< origin + columns * advance, rows: 2 * scale ..< origin + lines.count * lineHeight,
                    with: RGBColor(0, 0, 0))
        for (lineIndex, line) in lines.enumerated() {
            for (column, character) in line.enumerated() {
                guard let glyph = BitmapFont.glyphs[character] else { continue }
                let left = origin + column * advance, top = origin + lineIndex * lineHeight
                for row in 0..<BitmapFont.glyphHeight {
                    for dot in 0..<BitmapFont.glyphWidth where BitmapFont.isSet(glyph, column: dot, row: row) {
                        canvas.fill(columns: left + dot * scale ..< left + (dot + 1) * scale,
                                    rows: top + row * scale ..< top + (row + 1) * scale, with: RGBColor(255, 255, 255))
                    }
                }
            }
        }
    }

    private static func padded(_ value: some BinaryInteger, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
