import CGtk

/// The desktop's folders for the user's pictures and videos (xdg-user-dirs), as GLib finds
/// them; `$HOME/Pictures` and `$HOME/Videos` where none is configured.
public enum UserFolders {
    public static var pictures: String { folder(G_USER_DIRECTORY_PICTURES, fallback: "Pictures") }
    public static var videos: String { folder(G_USER_DIRECTORY_VIDEOS, fallback: "Videos") }
    /// Where apps keep their settings: $XDG_CONFIG_HOME, or ~/.config.
    public static var configuration: String { String(cString: g_get_user_config_dir()) }

    private static func folder(_ kind: GUserDirectory, fallback: String) -> String {
        if let configured = g_get_user_special_dir(kind) { return String(cString: configured) }
        return String(cString: g_get_home_dir()) + "/" + fallback
    }
}
