import LensBus
import LensCamera
import LensContract
import LensCore
import LensFace

/// StartFaceAutoCapture's options: the controller's configuration (validated by LensFace, whose
/// error names the option) and the camera to face.
struct FaceOptions {
    var configuration = FaceAutoCaptureConfiguration()
    /// As the component, the front camera by default (when there is one).
    var facing = CameraPosition.front

    init(_ options: [String: BusValue]) throws {
        for (key, value) in options {
            guard let option = Lens1.FaceOption(rawValue: key) else {
                throw LensError.invalidArgument("unknown face auto-capture option \(key); known: \(Lens1.FaceOption.known)")
            }
            switch option {
            case .minValidFrames: configuration.minValidFramesInRow = try Self.count(key, value)
            case .candidateSelectionMillis: configuration.candidateSelectionDurationMillis = try Self.count(key, value)
            case .detectionRectangle:
                guard case .structure(let fields) = value, case let edges = fields.compactMap(\.doubleValue), edges.count == 4,
                      fields.count == 4 else {
                    throw LensError.invalidArgument("detection_rectangle must be a (dddd): normalized left, top, right, bottom")
                }
                configuration.detectionRectangle = .init(left: edges[0], top: edges[1], right: edges[2], bottom: edges[3])
            case .cameraFacing:
                guard let text = value.stringValue, let position = CameraPosition(rawValue: text), position == .front || position == .back else {
                    throw LensError.invalidArgument("camera_facing must be front or back")
                }
                facing = position
            case .minFaceSize: configuration.minFaceSize = try Self.number(key, value)
            case .maxFaceSize: configuration.maxFaceSize = try Self.number(key, value)
            case .maxCenterOffset: configuration.maxCenterOffset = try Self.number(key, value)
            case .minBrightness: configuration.minBrightness = try Self.number(key, value)
            case .maxBrightness: configuration.maxBrightness = try Self.number(key, value)
            case .minSharpness: configuration.minSharpness = try Self.number(key, value)
            }
        }
        do { configuration = try configuration.validated() } catch { throw LensError.invalidArgument(error.message) }
    }

    private static func count(_ key: String, _ value: BusValue) throws -> Int {
        guard let n = value.uint32Value else { throw LensError.invalidArgument("\(key) must be a uint32") }
        return Int(n)
    }

    private static func number(_ key: String, _ value: BusValue) throws -> Double {
        guard let x = value.doubleValue, x.isFinite else { throw LensError.invalidArgument("\(key) must be a finite double") }
        return x
    }
}
