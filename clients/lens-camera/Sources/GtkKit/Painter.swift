import CGtk

/// Cairo drawing for DrawingArea, in the few shapes the app draws.
public struct Painter {
    let cairo: OpaquePointer
    public init(_ cairo: OpaquePointer) { self.cairo = cairo }

    public func setColor(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        cairo_set_source_rgba(cairo, red, green, blue, alpha)
    }

    public func strokeRectangle(x: Double, y: Double, width: Double, height: Double, lineWidth: Double) {
        cairo_set_line_width(cairo, lineWidth)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_stroke(cairo)
    }

    public func strokeCircle(x: Double, y: Double, radius: Double, lineWidth: Double) {
        cairo_set_line_width(cairo, lineWidth)
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x, y, radius, 0, 2 * Double.pi)
        cairo_stroke(cairo)
    }

    public func line(from start: (Double, Double), to end: (Double, Double), lineWidth: Double) {
        cairo_set_line_width(cairo, lineWidth)
        cairo_move_to(cairo, start.0, start.1)
        cairo_line_to(cairo, end.0, end.1)
        cairo_stroke(cairo)
    }
}
