import CGtk

public final class Box: Widget {
    public enum Orientation { case horizontal, vertical }

    public init(_ orientation: Orientation, spacing: Int = 0) {
        super.init(gtk_box_new(orientation == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL,
                               Int32(spacing)))
    }

    public func append(_ child: Widget) { gtk_box_append(typed(GtkBox.self), child.widget) }
    public func prepend(_ child: Widget) { gtk_box_prepend(typed(GtkBox.self), child.widget) }
    public func remove(_ child: Widget) { gtk_box_remove(typed(GtkBox.self), child.widget) }
}

/// Start, centre and end slots; the centre stays centred whatever the sides hold.
public final class CenterBox: Widget {
    public init() { super.init(gtk_center_box_new()) }
    public func setStart(_ child: Widget) { gtk_center_box_set_start_widget(opaque, child.widget) }
    public func setCenter(_ child: Widget) { gtk_center_box_set_center_widget(opaque, child.widget) }
    public func setEnd(_ child: Widget) { gtk_center_box_set_end_widget(opaque, child.widget) }
}

/// One main child and layers drawn over it, each placed by its alignment.
public final class Overlay: Widget {
    public init(child: Widget) {
        super.init(gtk_overlay_new())
        gtk_overlay_set_child(opaque, child.widget)
    }
    public func addLayer(_ layer: Widget) { gtk_overlay_add_overlay(opaque, layer.widget) }
}

/// Pages of which one shows at a time.
public final class Stack: Widget {
    public init() { super.init(gtk_stack_new()) }
    public func add(_ child: Widget, name: String) { gtk_stack_add_named(opaque, child.widget, name) }
    public var visiblePage: String {
        get { gtk_stack_get_visible_child_name(opaque).map { String(cString: $0) } ?? "" }
        set { gtk_stack_set_visible_child_name(opaque, newValue) }
    }
}

/// A horizontal scroller (the thumbnail strip).
public final class HorizontalScroller: Widget {
    public init(child: Widget) {
        super.init(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(opaque, GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_child(opaque, child.widget)
    }
}

/// A bubble above the widget it belongs to (a result's details). GTK wants a popover set as a
/// child this way unparented before its owner is finalized: done when the owner is destroyed.
public final class Popover: Widget {
    public init(attachedTo owner: Widget, child: Widget) {
        super.init(gtk_popover_new())
        gtk_popover_set_child(typed(GtkPopover.self), child.widget)
        gtk_widget_set_parent(widget, owner.widget)
        gtk_popover_set_position(typed(GtkPopover.self), GTK_POS_TOP)
        let popover = widget
        Signals.connect(owner.raw, "destroy") { gtk_widget_unparent(popover) }
    }
    public func popup() { gtk_popover_popup(typed(GtkPopover.self)) }
    public func popdown() { gtk_popover_popdown(typed(GtkPopover.self)) }
}

/// The window's title bar (client-side): buttons at its start and end, a widget in its centre.
public final class HeaderBar: Widget {
    public init() { super.init(gtk_header_bar_new()) }
    public func packStart(_ child: Widget) { gtk_header_bar_pack_start(opaque, child.widget) }
    public func packEnd(_ child: Widget) { gtk_header_bar_pack_end(opaque, child.widget) }
    public func setTitleWidget(_ child: Widget) { gtk_header_bar_set_title_widget(opaque, child.widget) }
}

/// A disclosure triangle and its label; the child shows while expanded.
public final class Expander: Widget {
    public init(_ label: String, child: Widget) {
        super.init(gtk_expander_new(label))
        gtk_expander_set_child(opaque, child.widget)
    }
    public var isExpanded: Bool {
        get { gtk_expander_get_expanded(opaque) != 0 }
        set { gtk_expander_set_expanded(opaque, newValue ? 1 : 0) }
    }
}
