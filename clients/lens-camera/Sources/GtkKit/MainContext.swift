import CGtk

/// The GLib main context GTK runs on. Other threads hand work to it here: each `post` is one
/// idle source, dispatched in the order posted (sources of one priority run in creation order).
public enum MainContext {
    /// Runs `work` on the main context at its next iteration. Always a source: not
    /// g_main_context_invoke, which runs the work on the calling thread whenever that thread
    /// can acquire the context (between two iterations of the main loop, say).
    public static func post(_ work: @escaping @Sendable () -> Void) {
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            ClosureBox<@Sendable () -> Void>.function(data)()
            return 0  // G_SOURCE_REMOVE
        }, ClosureBox.retained(work), destroyClosureBox)
    }

    /// Runs `work` every `milliseconds` on the main context while it returns true. Returns the
    /// source, for `cancel`.
    @discardableResult
    public static func every(milliseconds: UInt32, _ work: @escaping () -> Bool) -> UInt32 {
        g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            ClosureBox<() -> Bool>.function(data)() ? 1 : 0
        }, ClosureBox.retained(work), destroyClosureBox)
    }

    /// Runs `work` once after `milliseconds`.
    @discardableResult
    public static func after(milliseconds: UInt32, _ work: @escaping () -> Void) -> UInt32 {
        every(milliseconds: milliseconds) { work(); return false }
    }

    public static func cancel(_ source: UInt32) {
        g_source_remove(source)
    }
}
