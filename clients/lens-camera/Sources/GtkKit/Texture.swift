import CGtk

/// A decoded image (GdkTexture). Textures are immutable, so one made on a worker thread — the
/// preview's decoding — can be shown on the main context.
public final class Texture: @unchecked Sendable {
    let pointer: OpaquePointer

    public struct DecodingFailed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Decodes a JPEG (or PNG) with GdkPixbuf's loaders.
    public init(encoded bytes: [UInt8]) throws {
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        var error: UnsafeMutablePointer<GError>?
        guard let texture = gdk_texture_new_from_bytes(data, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw DecodingFailed(description: "cannot decode the image: \(message)")
        }
        pointer = texture
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    public var width: Int { Int(gdk_texture_get_width(pointer)) }
    public var height: Int { Int(gdk_texture_get_height(pointer)) }
}
