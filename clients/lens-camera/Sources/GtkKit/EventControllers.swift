import CGtk

/// Input handling attached to a widget (`Widget.add`).
public class EventController {
    let controller: OpaquePointer
    init(_ controller: OpaquePointer) { self.controller = controller }
    var raw: gpointer { UnsafeMutableRawPointer(controller) }

    /// Sees events before the widgets beneath it (so Space does not also press a focused button).
    public func runsBeforeChildren() {
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
    }
}

/// A click or tap: where, in the widget's coordinates.
public final class ClickGesture: EventController {
    public init(_ onPress: @escaping (_ x: Double, _ y: Double) -> Void) {
        super.init(gtk_gesture_click_new())
        Signals.connectPress(raw, "pressed") { _, x, y in onPress(x, y) }
    }
}

/// A two-finger pinch: `scale` is cumulative since the gesture began.
public final class PinchGesture: EventController {
    public init(began: @escaping () -> Void, scaleChanged: @escaping (_ scale: Double) -> Void) {
        super.init(gtk_gesture_zoom_new())
        Signals.connectPointer(raw, "begin") { _ in began() }
        Signals.connectDouble(raw, "scale-changed", scaleChanged)
    }
}

/// Wheel and touchpad scrolling; the handler says whether it used the event.
public final class ScrollController: EventController {
    public init(_ onScroll: @escaping (_ dx: Double, _ dy: Double, _ modifiers: KeyModifiers) -> Bool) {
        super.init(gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL))
        let controller = controller
        Signals.connectScroll(raw, "scroll") { dx, dy in
            onScroll(dx, dy, KeyModifiers(rawValue: gtk_event_controller_get_current_event_state(controller).rawValue))
        }
    }
}

public struct KeyModifiers: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: GDK_SHIFT_MASK.rawValue)
    public static let control = KeyModifiers(rawValue: GDK_CONTROL_MASK.rawValue)
    public static let alt = KeyModifiers(rawValue: GDK_ALT_MASK.rawValue)
}

/// Key presses; the handler gets the key's name ("space", "v") and says whether it used it.
public final class KeyController: EventController {
    public init(_ onKey: @escaping (_ key: String, _ modifiers: KeyModifiers) -> Bool) {
        super.init(gtk_event_controller_key_new())
        Signals.connectKey(raw, "key-pressed") { keyval, state in
            guard let name = gdk_keyval_name(gdk_keyval_to_lower(keyval)) else { return false }
            return onKey(String(cString: name), KeyModifiers(rawValue: state))
        }
    }
}
