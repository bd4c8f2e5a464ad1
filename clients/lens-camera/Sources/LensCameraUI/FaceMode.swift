import LensClient

/// Face auto-capture as the app runs it: lensd's defaults (the front camera, its thresholds),
/// searching the whole frame — the area the preview outlines.
enum FaceMode {
    static let detectionArea = (left: 0.0, top: 0.0, right: 1.0, bottom: 1.0)

    static var configuration: LensFaceAutoCaptureConfiguration {
        var configuration = LensFaceAutoCaptureConfiguration()
        configuration.detectionRectangle = detectionArea
        return configuration
    }

    /// Where `make install` puts lensd's catalogs (the instruction texts).
    static let localeDirectories = ["/usr/share/locale", "/usr/local/share/locale"]
}
