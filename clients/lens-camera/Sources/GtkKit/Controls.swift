import CGtk

public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(gtk_label_new(text))
    }
    public var text: String {
        get { String(cString: gtk_label_get_text(opaque)) }
        set { gtk_label_set_text(opaque, newValue) }
    }
    public func setWrap(_ wrap: Bool) { gtk_label_set_wrap(opaque, wrap ? 1 : 0) }
    public func setJustifyCenter() { gtk_label_set_justify(opaque, GTK_JUSTIFY_CENTER) }
    public func setSelectable(_ selectable: Bool) { gtk_label_set_selectable(opaque, selectable ? 1 : 0) }
}

public final class Button: Widget {
    public init(label: String) {
        super.init(gtk_button_new_with_label(label))
    }
    /// A button showing any widget (a thumbnail).
    public init(child: Widget) {
        super.init(gtk_button_new())
        gtk_button_set_child(typed(GtkButton.self), child.widget)
    }
    public var label: String {
        get { gtk_button_get_label(typed(GtkButton.self)).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(typed(GtkButton.self), newValue) }
    }
    public func onClicked(_ body: @escaping () -> Void) { Signals.connect(raw, "clicked", body) }
}

/// Shows a paintable (here: a texture) scaled into its allocation.
public final class Picture: Widget {
    public enum Fit { case contain, cover }

    public init() { super.init(gtk_picture_new()) }

    public var fit: Fit = .contain {
        didSet { gtk_picture_set_content_fit(opaque, fit == .contain ? GTK_CONTENT_FIT_CONTAIN : GTK_CONTENT_FIT_COVER) }
    }

    public func show(_ texture: Texture?) {
        gtk_picture_set_paintable(opaque, texture?.pointer)
    }

    /// Lets the picture shrink below the texture's size (the window, not the frame, sets the size).
    public func allowShrinking() { gtk_picture_set_can_shrink(opaque, 1) }
}

/// Draws with cairo whenever GTK asks (queueDraw).
public final class DrawingArea: Widget {
    public typealias Draw = (_ cairo: OpaquePointer, _ width: Double, _ height: Double) -> Void

    public init(draw: @escaping Draw) {
        super.init(gtk_drawing_area_new())
        gtk_drawing_area_set_draw_func(typed(GtkDrawingArea.self), { _, cairo, width, height, data in
            guard let cairo else { return }
            ClosureBox<Draw>.function(data)(cairo, Double(width), Double(height))
        }, ClosureBox.retained(draw), destroyClosureBox)
    }
}
