import LensBus
import LensCore
import LensFace

/// StartFaceAutoCapture's options: the controller's configuration (validated by LensFace, whose
/// error names the option) and the camera to face.
struct FaceOptions {
    var configuration = FaceAutoCaptureConfiguration()
    /// As the component, the front camera by default (when there is one).
    var facing = CameraPosition.front

    static let keys = "min_valid_frames, candidate_selection_ms, detection_rectangle, camera_facing, min_face_size, "
        + "max_face_size, max_center_offset, min_brightness, max_brightness, min_sharpness"

    init(_ options: [String: BusValue]) throws {
        for (key, value) in options {
            switch key {
            case "min_valid_frames": configuration.minValidFramesInRow = try Self.count(key, value)
            case "candidate_selection_ms": configuration.candidateSelectionDurationMillis = try Self.count(key, value)
            case "detection_rectangle":
                guard case .structure(let fields) = value, case let edges = fields.compactMap(\.doubleValue), edges.count == 4,
                      fields.count == 4 else {
                    throw LensError.invalidArgument("detection_rectangle must be a (dddd): normalized left, top, right, bottom")
                }
                configuration.detectionRectangle = .init(left: edges[0], top: edges[1], right: edges[2], bottom: edges[3])
            case "camera_facing":
                guard let text = value.stringValue, let position = CameraPosition(rawValue: text), position == .front || position == .back else {
                    throw LensError.invalidArgument("camera_facing must be front or back")
                }
                facing = position
            case "min_face_size": configuration.minFaceSize = try Self.number(key, value)
            case "max_face_size": configuration.maxFaceSize = try Self.number(key, value)
            case "max_center_offset": configuration.maxCenterOffset = try Self.number(key, value)
            case "min_brightness": configuration.minBrightness = try Self.number(key, value)
            case "max_brightness": configuration.maxBrightness = try Self.number(key, value)
            case "min_sharpness": configuration.minSharpness = try Self.number(key, value)
            default: throw LensError.invalidArgument("unknown face auto-capture option \(key); known: \(Self.keys)")
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
