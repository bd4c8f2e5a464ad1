import CGtk

/// A GTK widget. GTK owns it (its parent holds the reference); this object only refers to it,
/// and the app keeps the widgets it needs for as long as their window lives.
open class Widget {
    public let raw: UnsafeMutableRawPointer

    public init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }
    init(_ widget: UnsafeMutablePointer<GtkWidget>) { raw = UnsafeMutableRawPointer(widget) }
    init(_ widget: OpaquePointer) { raw = UnsafeMutableRawPointer(widget) }

    var widget: UnsafeMutablePointer<GtkWidget> { raw.assumingMemoryBound(to: GtkWidget.self) }
    func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> { raw.assumingMemoryBound(to: T.self) }
    var opaque: OpaquePointer { OpaquePointer(raw) }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// The name screen readers say (AT-SPI).
    public func setAccessibleName(_ name: String) { lens_set_accessible_label(widget, name) }

    /// What it is, said after its name (a label whose words are its name: "00:12", "Recording duration").
    public func setAccessibleDescription(_ description: String) { lens_set_accessible_description(widget, description) }

    public func setTooltip(_ text: String) { gtk_widget_set_tooltip_text(widget, text) }

    /// Children are cut to the widget's (rounded) box: a round thumbnail.
    public func clipsChildren() { gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN) }

    public func addCSSClass(_ name: String) { gtk_widget_add_css_class(widget, name) }
    public func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(widget, name) }
    public func setCSSClass(_ name: String, _ on: Bool) { on ? addCSSClass(name) : removeCSSClass(name) }

    public func setSizeRequest(width: Int = -1, height: Int = -1) {
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
    }

    public func setExpand(horizontal: Bool? = nil, vertical: Bool? = nil) {
        if let horizontal { gtk_widget_set_hexpand(widget, horizontal ? 1 : 0) }
        if let vertical { gtk_widget_set_vexpand(widget, vertical ? 1 : 0) }
    }

    public enum Align {
        case fill, start, center, end
        var gtk: GtkAlign {
            switch self {
            case .fill: GTK_ALIGN_FILL
            case .start: GTK_ALIGN_START
            case .center: GTK_ALIGN_CENTER
            case .end: GTK_ALIGN_END
            }
        }
    }

    public func setAlign(horizontal: Align? = nil, vertical: Align? = nil) {
        if let horizontal { gtk_widget_set_halign(widget, horizontal.gtk) }
        if let vertical { gtk_widget_set_valign(widget, vertical.gtk) }
    }

    public func setMargins(_ margin: Int) {
        gtk_widget_set_margin_top(widget, Int32(margin))
        gtk_widget_set_margin_bottom(widget, Int32(margin))
        gtk_widget_set_margin_start(widget, Int32(margin))
        gtk_widget_set_margin_end(widget, Int32(margin))
    }

    /// Whether pointer events reach it (false: clicks go to what lies beneath).
    public var receivesPointer: Bool {
        get { gtk_widget_get_can_target(widget) != 0 }
        set { gtk_widget_set_can_target(widget, newValue ? 1 : 0) }
    }

    public var canFocus: Bool {
        get { gtk_widget_get_focusable(widget) != 0 }
        set { gtk_widget_set_focusable(widget, newValue ? 1 : 0) }
    }

    public var width: Double { Double(gtk_widget_get_width(widget)) }
    public var height: Double { Double(gtk_widget_get_height(widget)) }

    public func queueDraw() { gtk_widget_queue_draw(widget) }

    public func add(_ controller: EventController) {
        gtk_widget_add_controller(widget, controller.controller)
    }

    /// Runs `body` as GTK destroys the widget (a window: as it closes), its children still there.
    public func onDestroy(_ body: @escaping () -> Void) { Signals.connect(raw, "destroy", body) }
}
