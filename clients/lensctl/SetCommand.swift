import LensClient

/// `lensctl set SETTING VALUE`: one camera control.
enum SetCommand: Command {
    static let name = "set"
    static let synopsis = "set SETTING VALUE      flash, zoom, focus or camera"
    static let help = """
    usage: lensctl set SETTING VALUE [--bus ADDRESS] [--json]

      flash off|on|auto|toggle      the current camera's flash; toggle steps through the
                                    modes the camera supports in the order off, on, auto
      zoom FACTOR [--pinch]         absolute zoom, 1 or more; with --pinch, a pinch scale
                                    applied to the zoom in use (beyond the camera's maximum:
                                    the maximum, and set says so)
      focus X Y                     focus at a normalized point, 0...1 on both axes
      camera next|back|front|external|PATH
                                    switch cameras: next toggles back and front; a
                                    position or path picks from lensctl devices

    Each claims the camera for a moment (exit 1 if another session holds it) and stays set in
    lensd for everyone's later captures. Prints the value now in effect. (The camera mode and
    the location threshold belong to a session, which ends with the command: `record` sets
    the mode, `capture --accuracy` the threshold.)
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, switches: ["--pinch"])
        guard let setting = args.positionals.first else { throw CommandFailure(.usage, "set needs a SETTING; see lensctl set --help") }
        let values = Array(args.positionals.dropFirst())
        let change = try Change(setting, values, pinch: args.has("--pinch"))
        let camera = try Connection.camera(args)
        try Connection.client { () throws(LensClientError) in try camera.startCaptureSession() }
        let result = try Connection.client { () throws(LensClientError) in try change.apply(to: camera) }
        if args.json { Output.json(result) } else { Output.line(result.text) }
        return .ok
    }
}

/// One parsed `set` request, checked before anything is sent.
private enum Change {
    case flash(LensFlashMode?)  // nil: toggle
    case zoom(Double, pinch: Bool)
    case focus(LensPoint)
    case camera(String)

    init(_ setting: String, _ values: [String], pinch: Bool) throws {
        let expected: [String: String] = [
            "flash": "off|on|auto|toggle", "zoom": "FACTOR", "focus": "X Y", "camera": "next|back|front|external|PATH",
        ]
        if setting == "mode" || setting == "accuracy" {
            throw CommandFailure(.usage, "\(setting) belongs to a session, which ends with this command: "
                + (setting == "mode" ? "use lensctl record for video" : "use lensctl capture --accuracy METERS"))
        }
        guard let shape = expected[setting] else {
            throw CommandFailure(.usage, "unknown setting \(setting); one of: flash, zoom, focus, camera")
        }
        guard values.count == (setting == "focus" ? 2 : 1) else { throw CommandFailure(.usage, "set \(setting) needs \(shape)") }
        guard pinch == false || setting == "zoom" else { throw CommandFailure(.usage, "--pinch goes with set zoom") }
        let value = values[0]
        switch setting {
        case "flash":
            guard value == "toggle" || LensFlashMode(rawValue: value) != nil else {
                throw CommandFailure(.usage, "flash must be \(shape), not \(value)")
            }
            self = .flash(LensFlashMode(rawValue: value))
        case "zoom":
            let range = pinch ? Double.leastNonzeroMagnitude...Double.greatestFiniteMagnitude : 1...Double.greatestFiniteMagnitude
            self = .zoom(try Arguments.number(value, pinch ? "a pinch scale" : "zoom", in: range), pinch: pinch)
        case "focus":
            self = .focus(LensPoint(x: try Arguments.number(values[0], "X", in: 0...1), y: try Arguments.number(values[1], "Y", in: 0...1)))
        default: self = .camera(value)
        }
    }

    func apply(to camera: LensCamera) throws(LensClientError) -> SetJSON {
        switch self {
        case .flash(let mode?):
            try camera.setFlashMode(mode)
            return SetJSON(setting: "flash", flashMode: mode.rawValue)
        case .flash(nil): return SetJSON(setting: "flash", flashMode: try camera.toggleFlash().rawValue)
        case .zoom(let value, let pinch):
            let factor = pinch ? try camera.zoom(by: value) : try camera.setZoomFactor(value)
            // lensd clamps to the camera's range rather than refuse; say so when it did.
            let maximum = try camera.currentDevice?.maxZoomFactor
            return SetJSON(setting: "zoom", zoomFactor: factor, zoomAtMaximum: maximum.map { factor >= $0 && (pinch || value > factor) } ?? false)
        case .focus(let point): return SetJSON(setting: "focus", point: PointJSON(try camera.focus(at: point).point))
        case .camera(let wanted):
            return SetJSON(setting: "camera", device: DeviceJSON(try CameraSelection.select(wanted, on: camera)))
        }
    }
}

/// What `set` prints: the setting and the value now in effect.
struct SetJSON: Encodable {
    var setting: String
    var flash_mode: String?
    var zoom_factor: Double?
    var focus_point: PointJSON?
    var current_device: DeviceJSON?
    /// The zoom asked for was beyond the camera's maximum, which lensd set instead (text only).
    private var zoomAtMaximum = false

    private enum CodingKeys: String, CodingKey { case setting, flash_mode, zoom_factor, focus_point, current_device }

    init(setting: String, flashMode: String? = nil, zoomFactor: Double? = nil, zoomAtMaximum: Bool = false,
         point: PointJSON? = nil, device: DeviceJSON? = nil) {
        self.setting = setting
        flash_mode = flashMode
        zoom_factor = zoomFactor
        self.zoomAtMaximum = zoomAtMaximum
        focus_point = point
        current_device = device
    }

    var text: String {
        let value = flash_mode
            ?? zoom_factor.map { String(cFormat: "%.2f×", $0) + (zoomAtMaximum ? " (the camera's maximum)" : "") }
            ?? focus_point.map { String(cFormat: "%.3f, %.3f", $0.x, $0.y) }
            ?? current_device.map { "\($0.position): \($0.name) (\($0.path))" }
        return "\(setting): \(value ?? "")"
    }
}
