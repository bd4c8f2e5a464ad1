/// A failed encode, decode or resize. TurboJPEG failures carry the library's own text
/// (tjGetErrorStr2), so a log line says what was wrong with the image.
public struct ImagingError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
