/// A colour as packed RGB stores it.
struct RGBColor: Equatable {
    var red: UInt8, green: UInt8, blue: UInt8

    init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// Packed RGB memory being painted with spans, rectangles and row copies: the synthetic camera
/// writes whole rows through pointers so a 1080p frame takes about a millisecond.
struct RGBCanvas {
    let pixels: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    var rowBytes: Int { width * 3 }

    init(_ buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int) {
        precondition(width > 0 && height > 0 && buffer.count >= width * height * 3)
        pixels = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        self.width = width
        self.height = height
    }

    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        pixels + y * rowBytes
    }

    /// Paints columns of row y; the span is clipped to the frame.
    func fill(row y: Int, columns: Range<Int>, with color: RGBColor) {
        let span = columns.clamped(to: 0..<width)
        var pixel = row(y) + span.lowerBound * 3
        for _ in span {
            pixel[0] = color.red; pixel[1] = color.green; pixel[2] = color.blue
            pixel += 3
        }
    }

    /// Paints a rectangle, clipped to the frame: one row painted, the others copied from it.
    func fill(columns: Range<Int>, rows: Range<Int>, with color: RGBColor) {
        let rows = rows.clamped(to: 0..<height)
        guard let first = rows.first else { return }
        fill(row: first, columns: columns, with: color)
        let span = columns.clamped(to: 0..<width)
        for y in rows.dropFirst() {
            (row(y) + span.lowerBound * 3).update(from: row(first) + span.lowerBound * 3, count: span.count * 3)
        }
    }

    /// Copies row `source` over each of `rows`.
    func copy(row source: Int, to rows: Range<Int>) {
        for y in rows { row(y).update(from: row(source), count: rowBytes) }
    }
}
