/// Why capture is disabled. Wire values are frozen (DESIGN.md).
public enum DisabledReason: String, Sendable, CaseIterable, Comparable {
    case enrollment, camera, location, storage

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
    public var storageLow: Bool

    public init(enrolled: Bool, cameraAvailable: Bool, locationPolicy: LocationPolicy, locationFix: LocationFix?,
                storageLow: Bool) {
        self.enrolled = enrolled
        self.cameraAvailable = cameraAvailable
        self.locationPolicy = locationPolicy
        self.locationFix = locationFix
        self.storageLow = storageLow
    }

    /// The reasons capture is disabled for a session that wants `accuracy` metres or better.
    public func disabledReasons(accuracy: Double) -> [DisabledReason] {
        var reasons: [DisabledReason] = []
        if !enrolled { reasons.append(.enrollment) }
        if !cameraAvailable { reasons.append(.camera) }
        if locationPolicy == .required && !LocationAccuracy.satisfies(locationFix, threshold: accuracy) {
            reasons.append(.location)
        }
        if storageLow { reasons.append(.storage) }
        return reasons
    }

    /// The fix to record for a session: only one within its accuracy, and never under `never`.
    public func fixToRecord(accuracy: Double) -> LocationFix? {
        guard locationPolicy != .never, LocationAccuracy.satisfies(locationFix, threshold: accuracy) else { return nil }
        return locationFix
    }
}
