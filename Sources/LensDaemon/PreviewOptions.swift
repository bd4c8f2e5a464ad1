import LensBus
import LensCamera
import LensContract
import LensCore

/// OpenPreview's options as the client asked for them; PreviewFormat fits them to the camera.
struct PreviewOptions {
    var box = PreviewFormat.defaultBox
    /// nil: the camera's rate (at most PreviewFormat.maximumFPS).
    var fps: Double?
    var quality = PreviewFormat.defaultQuality

    init(_ options: [String: BusValue]) throws {
        for (key, value) in options {
            guard let option = Lens1.PreviewOption(rawValue: key) else {
                throw LensError.invalidArgument("unknown preview option \(key); known: \(Lens1.PreviewOption.known)")
            }
            switch option {
            case .width: box.width = try Self.side(key, value)
            case .height: box.height = try Self.side(key, value)
            case .fps:
                // Below one frame a second a preview is no preview (and 5e-324 would divide into infinity).
                guard let rate = value.doubleValue, rate.isFinite, rate >= 1 else {
                    throw LensError.invalidArgument("fps must be a double of at least 1 (the preview's maximum frame rate)")
                }
                fps = rate
            case .quality:
                guard let q = value.uint32Value, (1...100).contains(q) else {
                    throw LensError.invalidArgument("quality must be a uint32 in 1...100 (JPEG quality)")
                }
                quality = Int(q)
            }
        }
    }

    private static func side(_ key: String, _ value: BusValue) throws -> Int {
        let sides = PreviewFormat.boxSides
        guard let side = value.uint32Value, sides.contains(Int(side)) else {
            throw LensError.invalidArgument("\(key) must be a uint32 in \(sides.lowerBound)...\(sides.upperBound) (pixels)")
        }
        return Int(side)
    }
}
