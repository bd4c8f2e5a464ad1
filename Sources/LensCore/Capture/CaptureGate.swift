/// Why capture is disabled. Wire values are frozen: they are the D-Bus API's (dbus/org.lensd.Lens1.xml, DisabledReasons).
public enum DisabledReason: String, Sendable, CaseIterable, Comparable {
    case enrollment, camera, location, storage, timestamp, microphone

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// What capture depends on, gathered in one value so that every change re-evaluates the same rule.
public struct CaptureConditions: Sendable, Equatable {
    public var enrolled: Bool
    public var cameraAvailable: Bool
    public var locationPolicy: LocationPolicy
    public var locationFix: LocationFix?
    /// Why there is no location source at all (gpsd unreachable, and when lensd tries again);
    /// nil while one is connected, or none is configured.
    public var locationSourceProblem: String?
    public var storageLow: Bool
    /// Why no TSA answers, while `timestamp = required` waits for one; nil otherwise.
    public var timestampProblem: String?
    /// Why the configured audio device cannot capture, when sound is required (audio = on);
    /// nil when it can, or sound is not required.
    public var microphoneProblem: String?

    public init(enrolled: Bool, cameraAvailable: Bool, locationPolicy: LocationPolicy, locationFix: LocationFix?,
                storageLow: Bool) {
        self.enrolled = enrolled
        self.cameraAvailable = cameraAvailable
        self.locationPolicy = locationPolicy
        self.locationFix = locationFix
        self.storageLow = storageLow
    }

    /// Each reason of `disabledReasons(accuracy:)` in words a person can act on: gpsd
    /// unreachable, no fix yet and a fix too coarse read differently, as they need different help.
    public func explanations(accuracy: Double, enrollmentProblem: String?, usesMicrophone: Bool = true) -> [DisabledReason: String] {
        var explained: [DisabledReason: String] = [:]
        for reason in disabledReasons(accuracy: accuracy, usesMicrophone: usesMicrophone) {
            explained[reason] = switch reason {
            case .enrollment: enrollmentProblem ?? "the device is not enrolled"
            case .camera: "no camera is available"
            case .storage: "the state directory is almost full (min-free-bytes)"
            case .location: locationExplanation(accuracy: accuracy)
            case .timestamp: "a time-stamp is required and no TSA answers: \(timestampProblem ?? "not yet asked")"
            case .microphone: microphoneProblem ?? "no audio capture device"
            }
        }
        return explained
    }

    private func locationExplanation(accuracy: Double) -> String {
        let need = "need ≤ \(Int(accuracy.rounded())) m"
        if let locationSourceProblem { return "\(locationSourceProblem) (\(need))" }
        guard let fix = locationFix, fix.mode != .none else { return "no fix yet (\(need))" }
        return "\(Int(fix.horizontalAccuracy.rounded())) m > \(Int(accuracy.rounded())) m: the fix is coarser than needed"
    }

    /// The reasons capture is disabled for a session that wants `accuracy` metres or better, and
    /// sound unless it turned it off (`usesMicrophone` false).
    public func disabledReasons(accuracy: Double, usesMicrophone: Bool = true) -> [DisabledReason] {
        var reasons: [DisabledReason] = []
        if !enrolled { reasons.append(.enrollment) }
        if !cameraAvailable { reasons.append(.camera) }
        if locationPolicy == .required && !LocationAccuracy.satisfies(locationFix, threshold: accuracy) {
            reasons.append(.location)
        }
        if storageLow { reasons.append(.storage) }
        if timestampProblem != nil { reasons.append(.timestamp) }
        if usesMicrophone && microphoneProblem != nil { reasons.append(.microphone) }
        return reasons
    }

    /// The fix to record for a session: only one within its accuracy, and never under `never`.
    public func fixToRecord(accuracy: Double) -> LocationFix? {
        guard locationPolicy != .never, LocationAccuracy.satisfies(locationFix, threshold: accuracy) else { return nil }
        return locationFix
    }
}
