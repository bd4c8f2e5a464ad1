import CGtk

/// GObject signals with Swift closures, one connector per handler signature (CGtk's shim).
/// The closure lives as long as the connection (GLib releases it with the object).
enum Signals {
    static func connect(_ instance: gpointer, _ signal: String, _ body: @escaping () -> Void) {
        lens_connect_void(instance, signal, { _, data in ClosureBox<() -> Void>.function(data)() },
                          ClosureBox.retained(body), releaseClosureBox)
    }

    /// GtkGestureClick "pressed": presses, x, y in the widget's coordinates.
    static func connectPress(_ instance: gpointer, _ signal: String, _ body: @escaping (Int, Double, Double) -> Void) {
        lens_connect_press(instance, signal, { _, presses, x, y, data in
            ClosureBox<(Int, Double, Double) -> Void>.function(data)(Int(presses), x, y)
        }, ClosureBox.retained(body), releaseClosureBox)
    }

    /// A signal with one double argument (GtkGestureZoom "scale-changed").
    static func connectDouble(_ instance: gpointer, _ signal: String, _ body: @escaping (Double) -> Void) {
        lens_connect_double(instance, signal, { _, value, data in ClosureBox<(Double) -> Void>.function(data)(value) },
                            ClosureBox.retained(body), releaseClosureBox)
    }

    /// GtkEventControllerScroll "scroll": dx, dy; true when handled.
    static func connectScroll(_ instance: gpointer, _ signal: String, _ body: @escaping (Double, Double) -> Bool) {
        lens_connect_scroll(instance, signal, { _, dx, dy, data in
            ClosureBox<(Double, Double) -> Bool>.function(data)(dx, dy) ? 1 : 0
        }, ClosureBox.retained(body), releaseClosureBox)
    }

    /// GtkEventControllerKey "key-pressed": keyval, modifier state; true when handled.
    static func connectKey(_ instance: gpointer, _ signal: String, _ body: @escaping (UInt32, UInt32) -> Bool) {
        lens_connect_key(instance, signal, { _, keyval, _, state, data in
            ClosureBox<(UInt32, UInt32) -> Bool>.function(data)(keyval, state.rawValue) ? 1 : 0
        }, ClosureBox.retained(body), releaseClosureBox)
    }

    /// A signal with one pointer argument: a gesture's "begin" (its event sequence), an action's
    /// "activate" (its GVariant parameter), "notify::PROPERTY" (its GParamSpec).
    static func connectPointer(_ instance: gpointer, _ signal: String, _ body: @escaping (gpointer?) -> Void) {
        lens_connect_pointer(instance, signal, { _, argument, data in ClosureBox<(gpointer?) -> Void>.function(data)(argument) },
                             ClosureBox.retained(body), releaseClosureBox)
    }
}
