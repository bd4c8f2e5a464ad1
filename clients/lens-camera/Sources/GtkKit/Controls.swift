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
    /// At most this many characters a line: a wrapped label asks for no more width than that.
    public func setMaxWidthChars(_ count: Int) { gtk_label_set_max_width_chars(opaque, Int32(count)) }
    /// Lines start at the left edge (in a left-to-right language).
    public func alignTextStart() { gtk_label_set_xalign(opaque, 0) }
    /// A text too long for its space loses its middle ("/home/…/Lens Camera/photo.jpg").
    public func ellipsizeMiddle() { gtk_label_set_ellipsize(opaque, PANGO_ELLIPSIZE_MIDDLE) }
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
    /// An icon button (a symbolic icon of the theme); say what it does with a tooltip.
    public init(iconName: String) {
        super.init(gtk_button_new_from_icon_name(iconName))
    }
    public func setIcon(_ name: String) { gtk_button_set_icon_name(typed(GtkButton.self), name) }
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

/// A button that stays pressed while on; in a group, one at a time (a mode switcher).
public final class ToggleButton: Widget {
    public init(iconName: String, label: String? = nil) {
        super.init(gtk_toggle_button_new())
        let button = typed(GtkButton.self)
        if let label {
            // An icon beside words, as a switcher between modes shows them.
            let content = Box(.horizontal, spacing: 6)
            content.append(Image(iconName: iconName))
            content.append(Label(label))
            gtk_button_set_child(button, content.widget)
        } else {
            gtk_button_set_icon_name(button, iconName)
        }
    }

    public func setIcon(_ name: String) { gtk_button_set_icon_name(typed(GtkButton.self), name) }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(typed(GtkToggleButton.self)) != 0 }
        set { gtk_toggle_button_set_active(typed(GtkToggleButton.self), newValue ? 1 : 0) }
    }

    /// Joins `other`'s group: pressing one releases the others.
    public func join(_ other: ToggleButton) {
        gtk_toggle_button_set_group(typed(GtkToggleButton.self), other.typed(GtkToggleButton.self))
    }

    /// After every change of `isActive`, by a click or by the app.
    public func onToggled(_ body: @escaping () -> Void) { Signals.connect(raw, "toggled", body) }
}

/// A button that opens a menu of actions (a main menu, a choice of modes).
public final class MenuButton: Widget {
    public init(iconName: String, menu: Menu) {
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(opaque, iconName)
        gtk_menu_button_set_menu_model(opaque, menu.model)
    }

    public func setIcon(_ name: String) { gtk_menu_button_set_icon_name(opaque, name) }
    /// The arrow that says a menu opens, beside the icon.
    public func showArrow() { gtk_menu_button_set_always_show_arrow(opaque, 1) }
    /// The window's main menu: F10 opens it.
    public func makePrimary() { gtk_menu_button_set_primary(opaque, 1) }
}

/// An on/off switch (a preference).
public final class Switch: Widget {
    public init() { super.init(gtk_switch_new()) }
    public var isOn: Bool {
        get { gtk_switch_get_active(opaque) != 0 }
        set { gtk_switch_set_active(opaque, newValue ? 1 : 0) }
    }
    /// After every change, by the user or the app.
    public func onChanged(_ body: @escaping () -> Void) { Signals.connectPointer(raw, "notify::active") { _ in body() } }
}

/// An icon of the theme, or a picture at a fixed size (a small thumbnail: it never grows with
/// the space around it, as a Picture does).
public final class Image: Widget {
    public init(iconName: String) { super.init(gtk_image_new_from_icon_name(iconName)) }

    public init(pixelSize: Int) {
        super.init(gtk_image_new())
        gtk_image_set_pixel_size(opaque, Int32(pixelSize))
    }

    public func show(_ texture: Texture?) {
        gtk_image_set_from_paintable(opaque, texture?.pointer)
    }
}
