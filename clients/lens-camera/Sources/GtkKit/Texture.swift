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

    private init(taking texture: OpaquePointer) { pointer = texture }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The middle square of the picture, `side` pixels wide (a round thumbnail), or nil.
    public func centreSquare(side: Int) -> Texture? {
        guard let pixbuf = gdk_pixbuf_get_from_texture(pointer) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let square = min(width, height)
        guard square > 0, let middle = gdk_pixbuf_new_subpixbuf(pixbuf, Int32((width - square) / 2), Int32((height - square) / 2),
                                                                Int32(square), Int32(square)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(middle)) }
        guard let scaled = gdk_pixbuf_scale_simple(middle, Int32(side), Int32(side), GDK_INTERP_BILINEAR) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
        return gdk_texture_new_for_pixbuf(scaled).map(Texture.init(taking:))
    }

    public var width: Int { Int(gdk_texture_get_width(pointer)) }
    public var height: Int { Int(gdk_texture_get_height(pointer)) }
}
