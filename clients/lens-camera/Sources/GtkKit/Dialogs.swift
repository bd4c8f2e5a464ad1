import CGtk

/// The About window GNOME apps open from their main menu: name, version, what it is, who made it.
public enum AboutDialog {
    public static func show(over parent: Window, name: String, version: String, comments: String, iconName: String,
                            developers: [String]) {
        let dialog = gtk_about_dialog_new()!
        let about = OpaquePointer(dialog)
        gtk_about_dialog_set_program_name(about, name)
        gtk_about_dialog_set_version(about, version)
        gtk_about_dialog_set_comments(about, comments)
        gtk_about_dialog_set_logo_icon_name(about, iconName)
        withCStringArray(developers) { gtk_about_dialog_set_authors(about, $0) }
        let window = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_transient_for(window, parent.typed(GtkWindow.self))
        gtk_window_set_modal(window, 1)
        gtk_window_present(window)
    }
}

/// The Keyboard Shortcuts window (GtkShortcutsWindow), built from GtkBuilder XML: GTK makes it
/// from a description only.
public final class ShortcutsWindow {
    let window: OpaquePointer

    /// `groups`: a title and its (accelerator, what it does) pairs, e.g. ("space", "Take a photo").
    public init(title: String, groups: [(title: String, shortcuts: [(accelerator: String, title: String)])]) {
        func escaped(_ text: String) -> String {
            text.map { character in
                switch character {
                case "&": "&amp;"
                case "<": "&lt;"
                case ">": "&gt;"
                case "\"": "&quot;"
                default: String(character)
                }
            }.joined()
        }
        let body = groups.map { group in
            "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escaped(group.title))</property>"
                + group.shortcuts.map { shortcut in
                    "<child><object class=\"GtkShortcutsShortcut\"><property name=\"accelerator\">\(escaped(shortcut.accelerator))"
                        + "</property><property name=\"title\">\(escaped(shortcut.title))</property></object></child>"
                }.joined() + "</object></child>"
        }.joined()
        let xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\"><property name=\"modal\">1</property>"
            + "<child><object class=\"GtkShortcutsSection\"><property name=\"section-name\">shortcuts</property>\(body)"
            + "</object></child></object></interface>"
        let builder = gtk_builder_new_from_string(xml, -1)
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        let object = gtk_builder_get_object(builder, "shortcuts")!
        g_object_ref(UnsafeMutableRawPointer(object))
        window = OpaquePointer(object)
        gtk_window_set_title(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self), title)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(window)) }
}
