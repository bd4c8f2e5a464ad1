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

    /// The keys that trigger an action ("<Control>q" for "win.quit"), as GTK writes them.
    public func setAccelerators(_ accelerators: [String], for action: String) {
        withCStringArray(accelerators) { gtk_application_set_accels_for_action(application, action, $0) }
    }

    /// Icons of the app's own (`NAME.svg` files in `directory`) beside the theme's.
    public func addIcons(from directory: String) {
        gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(gdk_display_get_default()), directory)
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

    /// A window of the app's that stays above `parent` and blocks it while shown (Preferences),
    /// with a header bar showing its title; Escape or its close button hides it, for the next time.
    public init(dialogOf parent: Window, title: String, width: Int, height: Int) {
        super.init(gtk_window_new())
        let window = typed(GtkWindow.self)
        gtk_window_set_title(window, title)
        gtk_window_set_titlebar(window, gtk_header_bar_new())
        gtk_window_set_default_size(window, Int32(width), Int32(height))
        gtk_window_set_transient_for(window, parent.typed(GtkWindow.self))
        gtk_window_set_modal(window, 1)
        gtk_window_set_hide_on_close(window, 1)
        gtk_window_set_destroy_with_parent(window, 1)
        add(KeyController { [unowned self] key, modifiers in
            guard key == "Escape", modifiers.isEmpty else { return false }
            close()
            return true
        })
    }

    /// The icon every window shows, by its name in the icon theme (the installed app icon).
    public static func setDefaultIcon(named name: String) { gtk_window_set_default_icon_name(name) }

    public func setChild(_ child: Widget) { gtk_window_set_child(typed(GtkWindow.self), child.widget) }
    /// The title bar GTK draws for the window itself: a header bar.
    public func setTitlebar(_ bar: Widget) { gtk_window_set_titlebar(typed(GtkWindow.self), bar.widget) }
    public func present() { gtk_window_present(typed(GtkWindow.self)) }
    /// As the window manager's close button: the app ends with its last window.
    public func close() { gtk_window_close(typed(GtkWindow.self)) }

    /// `win.NAME` for the window's menus, buttons and shortcuts (an application window only).
    public func add(_ action: Action) { g_action_map_add_action(opaque, action.action) }

    /// The Keyboard Shortcuts window, `win.show-help-overlay` (Ctrl+?) (an application window only).
    public func setHelpOverlay(_ shortcuts: ShortcutsWindow) {
        gtk_application_window_set_help_overlay(typed(GtkApplicationWindow.self), shortcuts.window)
    }

    /// Opens `path` with the desktop's application for its type — the image viewer for a photo,
    /// the video player for a video, the file manager for a folder — through the OpenURI portal
    /// in a sandbox. `failed` gets GLib's reason when none could be started.
    public func open(path: String, failed: @escaping (String) -> Void) {
        guard let file = g_file_new_for_path(path), let uri = g_file_get_uri(file) else { return failed("no such file") }
        defer { g_free(uri); g_object_unref(UnsafeMutableRawPointer(file)) }
        let box = ClosureBox<(String) -> Void>.retained(failed)
        gtk_show_uri_full(typed(GtkWindow.self), uri, UInt32(GDK_CURRENT_TIME), nil, { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let window = source.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
            let shown = gtk_show_uri_full_finish(window, result, &error) != 0
            let report = ClosureBox<(String) -> Void>.function(data)
            Unmanaged<AnyObject>.fromOpaque(data!).release()
            if !shown { report(error.map { String(cString: $0.pointee.message) } ?? "no application could open it") }
            g_clear_error(&error)
        }, box)
    }
}
