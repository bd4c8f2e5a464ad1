import FoundationEssentials
import LensSystem
import LensClient

/// `lensctl status`: the daemon's state and what a capture would meet now.
enum StatusCommand: Command {
    static let name = "status"
    static let synopsis = "status                 the daemon, its camera and whether capture is possible now"
    static let help = """
    usage: lensctl status [--bus ADDRESS] [--json]

    Shows lensd's version, camera, enrollment and certificate expiry, and — for a session of the
    caller — whether capture is enabled (and why not), the location fix and the current camera.
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv)
        _ = try args.positionals(0, "no arguments")
        let camera = try Connection.camera(args)
        let (daemon, capture) = try Connection.client { () throws(LensClientError) in (try camera.status(), try camera.captureStatus()) }
        if args.json {
            Output.json(StatusJSON(daemon, capture))
        } else {
            let expiry = Describe.certificateExpiry(daemon)
            let enabled = capture.captureEnabled ? "enabled" : "disabled (\(Describe.reasons(capture)))"
            Output.line("""
                   Version: \(daemon.version)
                    Camera: \(daemon.cameraPresent ? Describe.device(capture.currentDevice) : "none")
                Enrollment: \(daemon.enrollmentState)\(expiry)
                   Capture: \(enabled)
                  Location: \(Describe.location(capture.location)) (accepting ≤ \(String(cFormat: "%.0f", capture.maximumLocationAccuracy)) m)
            """)
            for hint in hints(capture) { Output.line("      Hint: \(hint)") }
        }
        return .ok
    }

    /// A way out of the reasons a new installation meets first: no camera, no location source.
    static func hints(_ capture: LensSessionStatus) -> [String] {
        var hints: [String] = []
        if capture.disabledReasons.contains(.camera) {
            hints.append("to try lensd without a camera, set `camera = synthetic` in /etc/lensd/lensd.conf "
                + "(its photos say they are synthetic)")
        }
        if capture.disabledReasons.contains(.location), capture.location == nil {
            hints.append("a camera that does not move needs no gpsd: set `location = optional`, or "
                + "`declared-location = LAT,LON`, in /etc/lensd/lensd.conf")
        }
        return hints
    }
}

struct StatusJSON: Encodable {
    var version: String
    var camera_present: Bool
    var enrollment_state: String
    var certificate_not_after: Date?
    var certificate_renew_after: Date?
    var renewal_due: Bool
    var capture_enabled: Bool
    var disabled_reasons: [String]
    var maximum_location_accuracy_m: Double
    var camera_mode: String
    var location: LocationJSON?
    var current_device: DeviceJSON?

    init(_ daemon: LensStatus, _ capture: LensSessionStatus) {
        version = daemon.version
        camera_present = daemon.cameraPresent
        enrollment_state = daemon.enrollmentState
        certificate_not_after = daemon.certificateNotAfter
        certificate_renew_after = daemon.certificateRenewAfter
        renewal_due = Describe.renewalIsDue(daemon)
        capture_enabled = capture.captureEnabled
        disabled_reasons = capture.disabledReasons.map(\.rawValue)
        maximum_location_accuracy_m = capture.maximumLocationAccuracy
        camera_mode = capture.cameraMode.rawValue
        location = capture.location.map(LocationJSON.init)
        current_device = capture.currentDevice.map(DeviceJSON.init)
    }
}
