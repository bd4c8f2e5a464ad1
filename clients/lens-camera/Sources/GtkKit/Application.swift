import CGtk

/// The GtkApplication: runs the main loop until its last window closes.
public final class Application {
    let application: UnsafeMutablePointer<GtkApplication>

    /// Several instances may run at once (one per bus, or side by side in tests).
    public init(id: String) {
        application = gtk_application_new(id, G_APPLICATION_NON_UNIQUE)
    }

    deinit { g_object_unref(application) }

    /// Runs the main loop; `activate` builds the first window. GTK does not see the process's
    /// arguments (the app parses its own). Returns the exit status.
    public func run(activate: @escaping (Application) -> Void) -> Int32 {
        Signals.connect(application, "activate") { [unowned self] in activate(self) }
        return g_application_run(UnsafeMutablePointer(OpaquePointer(application)), 0, nil)
    }

    /// Styles the whole app (CSS, GTK's dialect).
    public func loadStyle(_ css: String) {
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(provider),
                                                   UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }
}

public final class Window: Widget {
    public init(application: Application, title: String, width: Int, height: Int) {
        super.init(gtk_application_window_new(application.application))
        gtk_window_set_title(typed(GtkWindow.self), title)
        gtk_window_set_default_size(typed(GtkWindow.self), Int32(width), Int32(height))
    }

    /// The icon every window shows, by its name in the icon theme (the installed app icon).
    public static func setDefaultIcon(named name: String) { gtk_window_set_default_icon_name(name) }

    public func setChild(_ child: Widget) { gtk_window_set_child(typed(GtkWindow.self), child.widget) }
    public func present() { gtk_window_present(typed(GtkWindow.self)) }
    /// As the window manager's close button: the app ends with its last window.
    public func close() { gtk_window_close(typed(GtkWindow.self)) }

    /// Opens `uri` with the desktop's handler (a file manager for a folder).
    public func open(uri: String) { gtk_show_uri(typed(GtkWindow.self), uri, UInt32(GDK_CURRENT_TIME)) }
}
