/// Where the camera's frame lies inside the preview widget, for fit (the whole frame,
/// letterboxed) and fill (the widget covered, the frame's overflow cropped), and the mapping
/// between a point on the widget and a normalized point of the frame (0...1, top-left origin,
/// as FocusAt and FocusedOnPoint use).
struct PreviewGeometry: Equatable {
    enum Scaling: String { case fit, fill }

    let frameWidth: Double
    let frameHeight: Double
    let viewWidth: Double
    let viewHeight: Double
    let scaling: Scaling

    /// The frame's displayed rectangle in widget coordinates (larger than the widget for fill).
    var displayed: (x: Double, y: Double, width: Double, height: Double) {
        let scaleX = viewWidth / frameWidth, scaleY = viewHeight / frameHeight
        let scale = scaling == .fit ? min(scaleX, scaleY) : max(scaleX, scaleY)
        let width = frameWidth * scale, height = frameHeight * scale
        return ((viewWidth - width) / 2, (viewHeight - height) / 2, width, height)
    }

    /// The frame point under a widget point; nil on fit's letterbox bars (no frame there).
    func framePoint(atViewX x: Double, y: Double) -> (x: Double, y: Double)? {
        guard frameWidth > 0, frameHeight > 0, viewWidth > 0, viewHeight > 0 else { return nil }
        let shown = displayed
        let nx = (x - shown.x) / shown.width, ny = (y - shown.y) / shown.height
        guard (0...1).contains(nx), (0...1).contains(ny) else { return nil }
        return (nx, ny)
    }

    /// Where a frame point shows on the widget (it may lie outside the widget for fill).
    func viewPoint(atFrameX x: Double, y: Double) -> (x: Double, y: Double) {
        let shown = displayed
        return (shown.x + x * shown.width, shown.y + y * shown.height)
    }
}
