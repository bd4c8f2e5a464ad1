import CGtk

/// What GIO does with the user's files for the app.
public enum Files {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// Moves `path` to the desktop's trash (~/.local/share/Trash), where the user can restore it.
    public static func trash(_ path: String) throws {
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard g_file_trash(file, nil, &error) != 0 else {
            defer { g_clear_error(&error) }
            throw Failure(description: error.map { String(cString: $0.pointee.message) } ?? "cannot move \(path) to the trash")
        }
    }
}

/// A small settings file in GLib's key file format ([group] key=value), e.g.
/// ~/.config/lens-camera/settings.ini.
public final class KeyFile {
    private let file: OpaquePointer
    private let path: String

    /// Reads `path` if it is there (a missing or unreadable file reads as empty).
    public init(path: String) {
        self.path = path
        file = g_key_file_new()
        g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil)
    }

    deinit { g_key_file_free(file) }

    public func string(_ group: String, _ key: String) -> String? {
        guard let value = g_key_file_get_string(file, group, key, nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    public func set(_ group: String, _ key: String, _ value: String) { g_key_file_set_string(file, group, key, value) }

    /// Writes the file whole (its folder made first); false when it could not.
    @discardableResult
    public func save() -> Bool {
        if let folder = g_path_get_dirname(path) {
            g_mkdir_with_parents(folder, 0o700)
            g_free(folder)
        }
        return g_key_file_save_to_file(file, path, nil) != 0
    }
}
